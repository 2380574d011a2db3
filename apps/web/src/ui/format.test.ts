import { defaultUserSetting, type UserSetting } from '@ledgerline/contract';
import { timeZones } from '@ledgerline/contract';
import { formatInTimeZone } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, ianaTimeZone, wallClockIn } from './format';
import { format } from 'date-fns';

const london: UserSetting = { ...defaultUserSetting };
const instant = '2020-04-08T14:30:00Z'; // 15:30 in London (BST)

describe('date formatting', () => {
  it("shows 'N/A' for an empty date", () => {
    expect(formatDate(null, london)).toBe('N/A');
    expect(formatDateTime(undefined, london)).toBe('N/A');
    expect(formatDateTime('', london)).toBe('N/A');
  });

  it('uses yyyy/MM/dd and HH:mm:ss by default, in the user’s time zone', () => {
    expect(formatDate(instant, london)).toBe('2020/04/08');
    expect(formatDateTime(instant, london)).toBe('2020/04/08 15:30:00');
  });

  it('uses h:mm:ss aaa for a 12-hour clock', () => {
    expect(formatDateTime(instant, { ...london, use24Hour: false })).toBe('2020/04/08 3:30:00 pm');
  });

  it('converts the Windows time zone id to its IANA zone', () => {
    expect(ianaTimeZone('Tokyo Standard Time')).toBe('Asia/Tokyo');
    expect(formatDateTime(instant, { ...london, timeZoneId: 'Tokyo Standard Time' })).toBe(
      '2020/04/08 23:30:00',
    );
    expect(
      formatDate('2020-04-08T23:30:00Z', { ...london, timeZoneId: 'Tokyo Standard Time' }),
    ).toBe('2020/04/09');
  });

  it('uses the long and other short formats', () => {
    expect(
      formatDate(instant, { ...london, longDateFormat: 'EEEE, d MMMM yyyy' }, { long: true }),
    ).toBe('Wednesday, 8 April 2020');
    expect(formatDate(new Date(instant), { ...london, shortDateFormat: 'dd.MM.yyyy' })).toBe(
      '08.04.2020',
    );
  });

  it('reads the wall clock of every zone as date-fns-tz does, across DST changes', () => {
    const instants = [
      '2020-04-08T14:30:00.250Z',
      '2024-03-31T00:59:59Z', // London's spring change
      '2024-03-31T01:00:00Z',
      '2024-10-27T00:30:00Z', // London's autumn change (the repeated hour)
      '2024-10-27T01:30:00Z',
      '2024-11-03T06:30:00Z', // New York's autumn change
      '2024-12-31T23:59:59.999Z',
      '1999-12-31T12:00:00Z',
    ];
    const pattern = 'yyyy-MM-dd HH:mm:ss.SSS EEEE';
    for (const zone of timeZones) {
      for (const value of instants) {
        const date = new Date(value);
        expect(format(wallClockIn(date, zone.zoneName), pattern), `${zone.zoneName} ${value}`).toBe(
          formatInTimeZone(date, zone.zoneName, pattern),
        );
      }
    }
  });

  it('keeps a calendar date on its day whatever the zone', () => {
    const honolulu = { ...london, timeZoneId: 'Hawaiian Standard Time' };
    expect(formatDate('2024-03-31', honolulu)).toBe('2024/03/31');
  });
});
