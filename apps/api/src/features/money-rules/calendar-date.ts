/**
 * Calendar dates as 'YYYY-MM-DD' text. The money rules count whole days (spec 3 §3, the Late
 * Payment Act's daily interest), so they never see a time of day or a time zone: a timestamp
 * column is read as its UTC date, a `date` column is already one.
 */
export type CalendarDate = string;

const pattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 86_400_000;

// A page of invoices repeats a few hundred dates: both directions are remembered (bounded), which
// keeps date parsing and formatting out of the quote's cost.
const cacheLimit = 20_000;
const daysOf = new Map<string, number>();
const datesOf = new Map<number, CalendarDate>();

function epochDay(date: CalendarDate): number {
  const known = daysOf.get(date);
  if (known !== undefined) return known;
  const match = pattern.exec(date);
  if (!match) throw new Error(`Not a calendar date (YYYY-MM-DD): ${date}`);
  const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / dayMs;
  if (daysOf.size >= cacheLimit) daysOf.clear();
  daysOf.set(date, day);
  return day;
}

function fromEpochDay(day: number): CalendarDate {
  const known = datesOf.get(day);
  if (known !== undefined) return known;
  const date = new Date(day * dayMs).toISOString().slice(0, 10);
  if (datesOf.size >= cacheLimit) datesOf.clear();
  datesOf.set(day, date);
  return date;
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
