import { useMemo } from 'react';
import { useUserSetting } from '@/auth/api/get-me';
import { calendarDayOf, formatDate, formatDateTime, type DateFormatOptions, type DateInput } from './format';

/** Formatters bound to the signed-in user's settings, for grids and other plain text. */
export function useDateFormat() {
  const settings = useUserSetting();
  return useMemo(
    () => ({
      settings,
      formatDate: (value: DateInput, options?: DateFormatOptions) =>
        formatDate(value, settings, options),
      formatDateTime: (value: DateInput, options?: DateFormatOptions) =>
        formatDateTime(value, settings, options),
      /** The calendar day (YYYY-MM-DD) an instant falls on in the user's time zone. */
      dayOf: (instant: Date) => calendarDayOf(instant, settings),
    }),
    [settings],
  );
}
