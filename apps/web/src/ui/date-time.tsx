import { toDate, type DateInput } from './format';
import { useDateFormat } from './use-date-format';

interface DateTimeProps {
  value: DateInput;
  /** The user's long date format. */
  long?: boolean;
  /** The date without the time of day. */
  dateOnly?: boolean;
}

/** A date (and time) in the signed-in user's time zone and formats; 'N/A' when empty. */
export function DateTime({ value, long = false, dateOnly = false }: DateTimeProps) {
  const { formatDate, formatDateTime } = useDateFormat();
  const text = dateOnly ? formatDate(value, { long }) : formatDateTime(value, { long });
  const date = toDate(value);
  return date ? <time dateTime={date.toISOString()}>{text}</time> : <span>{text}</span>;
}
