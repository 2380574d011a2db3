import { isCalendarDay, toDate, type DateInput } from './format';
import { useDateFormat } from './use-date-format';

interface DateTimeProps {
  value: DateInput;
  /** The user's long date format. */
  long?: boolean;
  /** The date without the time of day. */
  dateOnly?: boolean;
}

/**
 * A date (and time) in the signed-in user's time zone and formats; 'N/A' when empty. A calendar
 * day (YYYY-MM-DD) is shown as that day in every time zone.
 */
export function DateTime({ value, long = false, dateOnly = false }: DateTimeProps) {
  const { formatDate, formatDateTime } = useDateFormat();
  const text = dateOnly ? formatDate(value, { long }) : formatDateTime(value, { long });
  if (isCalendarDay(value)) return <time dateTime={value}>{text}</time>;
  const date = toDate(value);
  return date ? <time dateTime={date.toISOString()}>{text}</time> : <span>{text}</span>;
}
