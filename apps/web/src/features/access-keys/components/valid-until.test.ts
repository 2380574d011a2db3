import { describe, expect, it } from 'vitest';
import { dayOf, endOfDayIso } from './valid-until';

describe('valid until', () => {
  it('lasts to the end of the chosen day in the user’s zone', () => {
    expect(endOfDayIso('2030-06-30', 'Europe/London')).toBe('2030-06-30T22:59:59.999Z');
    expect(endOfDayIso('2030-01-31', 'Asia/Tokyo')).toBe('2030-01-31T14:59:59.999Z');
  });

  it('shows a stored instant as its day in the user’s zone', () => {
    expect(dayOf('2030-06-30T22:59:59.999Z', 'Europe/London')).toBe('2030-06-30');
    expect(dayOf('2030-06-30T22:59:59.999Z', 'UTC')).toBe('2030-06-30');
    expect(dayOf('2030-06-30T23:30:00Z', 'Asia/Tokyo')).toBe('2030-07-01');
  });
});
