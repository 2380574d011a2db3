import { describe, expect, it } from 'vitest';
import { formatPattern, longDate, shortDateTime, zoneDisplayName } from './site-dates.js';

// The dashboard's greeting as the site writes it with date-fns (ui/format.ts), for the contract's
// date and time formats: the first screen's words must be the site's.
const instant = new Date('2026-11-05T14:07:09Z');

describe('the first screen’s dates', () => {
  it('writes the long and short formats in the user’s zone', () => {
    const london = {
      timeZoneId: 'GMT Standard Time',
      use24Hour: true,
      shortDateFormat: 'yyyy/MM/dd',
      longDateFormat: 'd MMMM yyyy',
    } as const;
    expect(longDate(instant, london)).toBe('5 November 2026');
    expect(shortDateTime(instant, london)).toBe('2026/11/05 14:07:09');
    expect(shortDateTime(instant, { ...london, use24Hour: false })).toBe('2026/11/05 2:07:09 pm');
    expect(zoneDisplayName('GMT Standard Time')).toBe('(UTC+00:00) GMT Standard Time');
  });

  it('moves the day and the hour with the zone, and knows every token of the formats', () => {
    expect(formatPattern(instant, 'EEEE, d MMMM yyyy', 'Tokyo Standard Time')).toBe(
      'Thursday, 5 November 2026',
    );
    expect(
      formatPattern(new Date('2026-11-05T20:00:00Z'), 'dd.MM.yyyy HH:mm', 'Tokyo Standard Time'),
    ).toBe('06.11.2026 05:00');
    expect(formatPattern(instant, 'MMM d, yyyy', 'Pacific Standard Time')).toBe('Nov 5, 2026');
    expect(formatPattern(instant, 'M/d/yyyy h:mm:ss aaa', 'Pacific Standard Time')).toBe(
      '11/5/2026 6:07:09 am',
    );
    expect(formatPattern(new Date('2026-11-05T00:30:00Z'), 'h aaa', 'GMT Standard Time')).toBe(
      '12 am',
    );
  });
});
