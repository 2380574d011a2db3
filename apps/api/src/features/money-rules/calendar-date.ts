/**
 * Calendar dates as 'YYYY-MM-DD' text. The money rules count whole days (spec 3 §3, the Late
 * Payment Act's daily interest), so they never see a time of day or a time zone: a timestamp
 * column is read as its UTC date, a `date` column is already one.
 */
export type CalendarDate = string;

const pattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 86_400_000;

function epochDay(date: CalendarDate): number {
  const match = pattern.exec(date);
  if (!match) throw new Error(`Not a calendar date (YYYY-MM-DD): ${date}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / dayMs;
}

function fromEpochDay(day: number): CalendarDate {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

/** A Date (its UTC day), an ISO timestamp or a calendar date, as a calendar date. */
export function toCalendarDate(value: Date | string): CalendarDate {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const day = value.slice(0, 10);
  epochDay(day);
  return day;
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return fromEpochDay(epochDay(date) + days);
}

/** Whole days from `from` to `to`: negative when `to` is earlier. */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return epochDay(to) - epochDay(from);
}

export function isCalendarDate(value: string): boolean {
  const match = pattern.exec(value);
  return match !== null && fromEpochDay(epochDay(value)) === value;
}
