import { timeFormat12, timeFormat24, timeZones, type UserSetting } from '@ledgerline/contract';
import { format, isValid, parseISO } from 'date-fns';

/** spec 1 §9 (money: money-format.ts) */
export const emptyDate = 'N/A';

/**
 * Dates arrive from the API as ISO 8601 strings and stay strings in the query cache (they match
 * the contract's types); they become Date objects only here, when shown.
 */
export type DateInput = Date | string | number | null | undefined;
export type DateSettings = Pick<
  UserSetting,
  'timeZoneId' | 'use24Hour' | 'shortDateFormat' | 'longDateFormat'
>;

export interface DateFormatOptions {
  /** The user's long date format instead of the short one. */
  long?: boolean;
}

const ianaZones = new Map(timeZones.map((zone) => [zone.id, zone.zoneName]));

/** Windows time-zone id (the user's setting) to the IANA name the browser's Intl needs. */
export function ianaTimeZone(timeZoneId: string): string {
  return ianaZones.get(timeZoneId) ?? 'UTC';
}

const dateOnlyPattern = /^\d{4}-\d{2}-\d{2}$/;

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The instant's wall-clock time in a time zone, as a Date whose local fields hold it (what
 * date-fns-tz's `toZonedTime` answers), read from the browser's own time-zone data. Not
 * date-fns-tz: it is 3 KB of the dashboard's first load (docs/decisions/085-first-load-under-170-kb.md "First load under
 * 170 KB"), and the site's patterns name no time zone, the one thing `formatInTimeZone` adds.
 */
export function wallClockIn(instant: Date, timeZone: string): Date {
  let wallClock = wallClockFormats.get(timeZone);
  if (!wallClock) {
    wallClock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClockFormats.set(timeZone, wallClock);
  }
  const field: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of wallClock.formatToParts(instant)) field[part.type] = Number(part.value);
  const result = new Date(0);
  result.setFullYear(field.year ?? 1970, (field.month ?? 1) - 1, field.day ?? 1);
  result.setHours(
    field.hour ?? 0,
    field.minute ?? 0,
    field.second ?? 0,
    instant.getUTCMilliseconds(),
  );
  return result;
}

/** An instant in a date-fns pattern, in a time zone (patterns without time-zone tokens). */
function formatInTimeZone(instant: Date, timeZone: string, pattern: string): string {
  return format(wallClockIn(instant, timeZone), pattern);
}

/**
 * Whether a value is a calendar day (YYYY-MM-DD): transaction and due dates, offers' validity,
 * required-by dates. A day is shown as it is, never moved by a time zone.
 */
export const isCalendarDay = (value: DateInput): value is string =>
  typeof value === 'string' && dateOnlyPattern.test(value);

/** Today as a calendar day (YYYY-MM-DD) in the user's time zone: what a due date is compared with. */
export function calendarDayOf(instant: Date, settings: Pick<DateSettings, 'timeZoneId'>): string {
  return formatInTimeZone(instant, ianaTimeZone(settings.timeZoneId), 'yyyy-MM-dd');
}

export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date =
    value instanceof Date ? value : typeof value === 'number' ? new Date(value) : parseISO(value);
  return isValid(date) ? date : null;
}

/** The date-fns pattern for the user's settings: date, plus HH:mm:ss or h:mm:ss aaa. */
export function datePattern(settings: DateSettings, { long = false, time = false } = {}): string {
  const date = long ? settings.longDateFormat : settings.shortDateFormat;
  if (!time) return date;
  return `${date} ${settings.use24Hour ? timeFormat24 : timeFormat12}`;
}

function formatWith(value: DateInput, pattern: string, settings: DateSettings): string {
  if (value === null || value === undefined || value === '') return emptyDate;
  // A calendar date without a time ("2024-03-31") is the same day everywhere: no zone shift.
  if (typeof value === 'string' && dateOnlyPattern.test(value)) {
    const date = parseISO(value);
    return isValid(date) ? format(date, pattern) : value;
  }
  const date = toDate(value);
  if (!date) return String(value);
  return formatInTimeZone(date, ianaTimeZone(settings.timeZoneId), pattern);
}

/** A date in the user's time zone and short (or long) format; 'N/A' when empty. */
export function formatDate(
  value: DateInput,
  settings: DateSettings,
  options: DateFormatOptions = {},
) {
  return formatWith(value, datePattern(settings, { long: options.long }), settings);
}

/** A date and time in the user's time zone, 24 or 12 hour; 'N/A' when empty. */
export function formatDateTime(
  value: DateInput,
  settings: DateSettings,
  options: DateFormatOptions = {},
) {
  const pattern = datePattern(settings, { long: options.long, time: true });
  if (typeof value === 'string' && dateOnlyPattern.test(value)) {
    return formatWith(value, datePattern(settings, { long: options.long }), settings);
  }
  return formatWith(value, pattern, settings);
}
