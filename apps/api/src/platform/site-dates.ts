import { timeFormat12, timeFormat24, timeZones, type UserSetting } from '@ledgerline/contract';

/**
 * An instant in one of the user's date patterns (the contract's short and long date formats and
 * time formats, date-fns tokens), in the user's time zone: what the site's `ui/format.ts` writes
 * with date-fns, for the few tokens those patterns use. The server writes the dashboard's
 * greeting with it into the first HTML (site-first-screen.ts), so that the line the site then
 * renders holds the same words.
 */
export type DateSettings = Pick<
  UserSetting,
  'timeZoneId' | 'use24Hour' | 'shortDateFormat' | 'longDateFormat'
>;

const zoneNames = new Map(timeZones.map((zone) => [zone.id, zone.zoneName]));

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: string;
  monthName: string;
  monthShort: string;
}

function wallClock(instant: Date, timeZoneId: string): WallClock {
  const timeZone = zoneNames.get(timeZoneId) ?? 'UTC';
  const field: Record<string, string> = {};
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    weekday: 'long',
  }).formatToParts(instant);
  for (const part of parts) field[part.type] = part.value;
  const month = Number(field.month);
  const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2000, month - 1, 1)),
  );
  return {
    year: Number(field.year),
    month,
    day: Number(field.day),
    hour: Number(field.hour),
    minute: Number(field.minute),
    second: Number(field.second),
    weekday: field.weekday ?? '',
    monthName,
    monthShort: monthName.slice(0, 3),
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The tokens of the contract's patterns, longest first. */
const tokens: [string, (c: WallClock) => string][] = [
  ['yyyy', (c) => String(c.year)],
  ['MMMM', (c) => c.monthName],
  ['EEEE', (c) => c.weekday],
  ['MMM', (c) => c.monthShort],
  ['aaa', (c) => (c.hour < 12 ? 'am' : 'pm')],
  ['MM', (c) => two(c.month)],
  ['dd', (c) => two(c.day)],
  ['HH', (c) => two(c.hour)],
  ['mm', (c) => two(c.minute)],
  ['ss', (c) => two(c.second)],
  ['M', (c) => String(c.month)],
  ['d', (c) => String(c.day)],
  ['h', (c) => String(c.hour % 12 === 0 ? 12 : c.hour % 12)],
];

export function formatPattern(instant: Date, pattern: string, timeZoneId: string): string {
  const clock = wallClock(instant, timeZoneId);
  let out = '';
  let rest = pattern;
  while (rest.length > 0) {
    const token = tokens.find(([name]) => rest.startsWith(name));
    if (token) {
      out += token[1](clock);
      rest = rest.slice(token[0].length);
    } else {
      out += rest[0];
      rest = rest.slice(1);
    }
  }
  return out;
}

/** The user's long date (`formatDate(now, { long: true })` in the site). */
export function longDate(instant: Date, settings: DateSettings): string {
  return formatPattern(instant, settings.longDateFormat, settings.timeZoneId);
}

/** The user's short date and time (`formatDateTime(now)` in the site). */
export function shortDateTime(instant: Date, settings: DateSettings): string {
  const time = settings.use24Hour ? timeFormat24 : timeFormat12;
  return formatPattern(instant, `${settings.shortDateFormat} ${time}`, settings.timeZoneId);
}

/** The zone's display name, '(UTC+00:00) GMT Standard Time'. */
export function zoneDisplayName(timeZoneId: string): string | null {
  return timeZones.find((zone) => zone.id === timeZoneId)?.displayName ?? null;
}
