import { z } from 'zod';

/**
 * Calendar days: transaction and due dates, a settlement offer's valid-from and
 * valid-until, a request's required-by date. They are days, not instants: stored as SQL `date`,
 * sent as `YYYY-MM-DD`, shown without any time-zone conversion. Only instants (created on, status
 * date-time) move with the user's time zone.
 */
export const calendarDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is `YYYY-MM-DD` naming a real day (2026-02-30 and 2026-13-45 are not). */
export function isCalendarDate(text: string): boolean {
  const match = calendarDatePattern.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A calendar day in an answer. */
export const calendarDateSchema = z.iso
  .date()
  .meta({
    description: 'A calendar day, YYYY-MM-DD (no time, no time zone).',
    examples: ['2026-11-23'],
  });

/**
 * A calendar day as a client sends it: `YYYY-MM-DD`, or (for connectors written against the
 * earlier date-time contract) an ISO 8601 date-time, of which the day is taken as written — its
 * own offset is not applied, so `2026-11-02T00:00:00+01:00` is 2 November, never 1 November.
 */
export const calendarDateInput = (message: string) =>
  z
    .string({ message })
    .trim()
    .refine(
      (text) =>
        isCalendarDate(text.slice(0, 10)) &&
        (text.length === 10 ||
          z.iso.datetime({ offset: true, local: true }).safeParse(text).success),
      message,
    )
    .transform((text) => text.slice(0, 10))
    .meta({
      description:
        'A calendar day, YYYY-MM-DD; a date-time is accepted and its day taken as written.',
      examples: ['2026-11-23'],
    });

/** Whether day `until` is not before day `from` (both YYYY-MM-DD; strings compare as days). */
export const dayNotBefore = (from: string | null | undefined, until: string | null | undefined) =>
  !from || !until || until >= from;
