import { isCalendarDate, paymentRequestMessages } from '@ledgerline/contract';
import {
  DateInput,
  DatePickerInput,
  type DateInputProps,
  type DatePickerInputProps,
} from '@mantine/dates';
import { useState, type FormEvent } from 'react';
import { useUserSetting } from '@/auth/api/get-me';

/**
 * The one way a date is typed or picked in the site: every date field — forms,
 * grid filters, the reports' As of, the reminder preview's day, the export's dates — is this
 * module's CalendarDateInput (one day) or CalendarDateRangeInput (a filter's "between"). Both show
 * the day in the signed-in user's short date format, the one DateTime and useDateFormat show dates
 * in on screen (spec 1 §3's default yyyy/MM/dd until the user picks another), and the single-day
 * field reads what is typed in that format. A day typed as YYYY-MM-DD is read too: it cannot be
 * mistaken for any of the formats (none starts with a four-digit year but the two that are it).
 */

/** Mantine's (dayjs) pattern for one of the contract's short date formats (date-fns tokens). */
export function inputPattern(dateFnsPattern: string): string {
  return dateFnsPattern.replace(/y+|d+/g, (token) => token.toUpperCase());
}

const isoDay = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * A day typed in a short date format (date-fns tokens yyyy, MM, M, dd, d), or as YYYY-MM-DD, as
 * a calendar day (YYYY-MM-DD); null when the text is not a real day in either (2026/02/30 is not
 * one, never rolled over into March). A day or month may be typed with or without its leading 0.
 */
export function parseTypedDay(text: string, dateFnsPattern: string): string | null {
  const trimmed = text.trim();
  const order: ('y' | 'M' | 'd')[] = [];
  const source = dateFnsPattern.replace(/yyyy|MM?|dd?|[^yMd]+/g, (token) => {
    if (token === 'yyyy') {
      order.push('y');
      return '(\\d{4})';
    }
    if (token[0] === 'M' || token[0] === 'd') {
      order.push(token[0] as 'M' | 'd');
      return '(\\d{1,2})';
    }
    return escape(token);
  });
  const day = (year: string, month: string, date: string) => {
    const candidate = `${year}-${month.padStart(2, '0')}-${date.padStart(2, '0')}`;
    return isCalendarDate(candidate) ? candidate : null;
  };
  const inPattern = new RegExp(`^${source}$`).exec(trimmed);
  if (inPattern && order.length === 3) {
    const part = (token: 'y' | 'M' | 'd') => inPattern[order.indexOf(token) + 1]!;
    const found = day(part('y'), part('M'), part('d'));
    if (found) return found;
  }
  const iso = isoDay.exec(trimmed);
  return iso ? day(iso[1]!, iso[2]!, iso[3]!) : null;
}

/** The signed-in user's short date format, as Mantine's valueFormat and as the typed-text reader. */
function useInputFormat() {
  const { shortDateFormat } = useUserSetting();
  return {
    valueFormat: inputPattern(shortDateFormat),
    parse: (text: string) => parseTypedDay(text, shortDateFormat),
  };
}

type CalendarDateInputProps = Omit<
  DateInputProps,
  'value' | 'onChange' | 'dateParser' | 'valueFormat'
> & {
  /** A calendar day (YYYY-MM-DD), null when empty, or the text typed when it is not a real day. */
  value?: string | null;
  onChange?: (value: string | null) => void;
};

/**
 * A calendar-day field: a day with no time zone, shown and typed in the
 * user's date format, and read strictly — 2026/13/45 is an inline error, never rolled over into
 * 2027. A text that is not a real day reaches the form as typed, so the form's own (contract)
 * validation refuses it too; the field says so as soon as it loses focus.
 */
export function CalendarDateInput({
  value,
  onChange,
  error,
  onBlur,
  placeholder,
  ...props
}: CalendarDateInputProps) {
  const { valueFormat, parse } = useInputFormat();
  const [typedInvalid, setTypedInvalid] = useState(false);
  const day = value && isCalendarDate(value) ? value : null;
  // Typed text reaches the form when it stops being a day (and on blur, as typed), not on every
  // keystroke; a real day arrives through the picker's own onChange.
  const readTyped = (text: string) => {
    const trimmed = text.trim();
    if (trimmed === '') {
      setTypedInvalid(false);
      if (value) onChange?.(null);
    } else if (!parse(trimmed) && (!value || value === day)) {
      onChange?.(trimmed);
    }
  };
  return (
    <DateInput
      {...props}
      placeholder={placeholder ?? valueFormat}
      value={day}
      onChange={(next) => {
        setTypedInvalid(false);
        onChange?.(next);
      }}
      valueFormat={valueFormat}
      dateParser={parse}
      fixOnBlur={false}
      onInput={(event: FormEvent<HTMLInputElement>) => readTyped(event.currentTarget.value)}
      onBlur={(event) => {
        const text = event.currentTarget.value.trim();
        const invalid = text !== '' && !parse(text);
        setTypedInvalid(invalid);
        if (invalid && text !== value) onChange?.(text);
        onBlur?.(event);
      }}
      error={error || (typedInvalid ? paymentRequestMessages.dateInvalid : undefined)}
    />
  );
}

type CalendarDateRangeInputProps = Omit<DatePickerInputProps<'range'>, 'type' | 'valueFormat'>;

/** Two calendar days picked as a range (the grids' date filters), shown in the user's date format. */
export function CalendarDateRangeInput(props: CalendarDateRangeInputProps) {
  const { valueFormat } = useInputFormat();
  return <DatePickerInput {...props} type="range" valueFormat={valueFormat} />;
}
