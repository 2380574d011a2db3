import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';

/**
 * The valid-until field picks a day; a key stays valid to the end of that day in the user's time
 * zone (the zone every date of the site is shown in).
 */
export function endOfDayIso(day: string, timeZone: string): string {
  return fromZonedTime(`${day}T23:59:59.999`, timeZone).toISOString();
}

/** The day (yyyy-MM-dd) an instant falls on in the user's time zone. */
export function dayOf(iso: string, timeZone: string): string {
  return formatInTimeZone(iso, timeZone, 'yyyy-MM-dd');
}
