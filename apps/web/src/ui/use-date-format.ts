import { useMemo } from 'react';
import { useUserSetting } from '@/auth/api/get-me';
import { formatDate, formatDateTime, type DateFormatOptions, type DateInput } from './format';

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
    }),
    [settings],
  );
}
