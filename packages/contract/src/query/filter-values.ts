import { QueryError, previewQueryItem } from './query-error.js';
import type { QueryFieldSpec } from './query-types.js';
import { isCalendarDate } from '../schemas/calendar-date.js';
import { uuidPattern } from '../ids.js';

/** A converted filter value; `wholeDay` only for dates. */
export type ConvertedValue =
  { value: string | boolean; wholeDay?: undefined } | { value: Date; wholeDay: boolean };

// numeric(19,4) (design §3): up to 15 integer digits and 4 decimals, no exponent, so the text
// goes to SQL unchanged and exactly.
const numberPattern = /^-?\d{1,15}(?:\.\d{1,4})?$/;
// ISO 8601 date, or date-time to the millisecond (a JS Date's precision); no offset means UTC.
const datePattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

const dayMilliseconds = 86_400_000;

export function convertFilterValue(
  field: string,
  spec: QueryFieldSpec,
  text: string,
  item: string,
): ConvertedValue {
  const invalid = (kind: string, hint: string) =>
    new QueryError({
      parameter: 'filter',
      item,
      message: `'${previewQueryItem(text)}' is not a valid ${kind} for '${field}'. ${hint}`,
    });
  switch (spec.type) {
    case 'string':
      return { value: text };
    case 'number':
      if (!numberPattern.test(text))
        throw invalid('number', 'Write a decimal such as 1234.56, with at most 4 decimals.');
      return { value: text };
    case 'uuid':
      if (!uuidPattern.test(text))
        throw invalid('id', 'Write a UUID such as 0190c3a4-7b1e-7c00-8000-000000000000.');
      return { value: text.toLowerCase() };
    case 'boolean': {
      const lower = text.toLowerCase();
      if (lower !== 'true' && lower !== 'false') throw invalid('boolean', 'Use true or false.');
      return { value: lower === 'true' };
    }
    case 'enum': {
      const canonical = spec.values.find((value) => value.toLowerCase() === text.toLowerCase());
      if (canonical === undefined) throw invalid('value', `Use one of ${spec.values.join(', ')}.`);
      return { value: canonical };
    }
    case 'date': {
      const date = parseIsoDate(text);
      if (!date) {
        throw invalid(
          'date',
          'Use an ISO 8601 date (2024-01-31) or date-time in UTC (2024-01-31T13:45:00Z).',
        );
      }
      return date;
    }
    case 'day':
      if (!isCalendarDate(text)) throw invalid('date', 'Use a date such as 2024-01-31 (a calendar day, no time).');
      return { value: text };
  }
}

function parseIsoDate(text: string): { value: Date; wholeDay: boolean } | undefined {
  const match = datePattern.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const parts = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
    millisecond: Number((fraction ?? '').padEnd(3, '0')),
  };
  if (parts.year < 1 || parts.hour > 23 || parts.minute > 59 || parts.second > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0–99 into 1900–1999.
  date.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  date.setUTCHours(parts.hour, parts.minute, parts.second, parts.millisecond);
  // Date rolls 2024-02-30 over into March; a rolled-over date was not a real one.
  if (date.getUTCMonth() !== parts.month - 1 || date.getUTCDate() !== parts.day) return undefined;
  const offsetMinutes = parseOffset(offset);
  if (offsetMinutes === undefined) return undefined;
  const value = new Date(date.getTime() - offsetMinutes * 60_000);
  // PostgreSQL has no year 0: an offset must not push 0001-01-01 back into it.
  if (value.getUTCFullYear() < 1 || value.getUTCFullYear() > 9999) return undefined;
  return { value, wholeDay: hour === undefined };
}

/** Minutes east of UTC; undefined when out of range. */
function parseOffset(offset: string | undefined): number | undefined {
  if (offset === undefined || offset.toUpperCase() === 'Z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return undefined;
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** The end (exclusive) of a whole-day value: the next UTC midnight. */
export function utcDayAfter(start: Date): Date {
  return new Date(start.getTime() + dayMilliseconds);
}
