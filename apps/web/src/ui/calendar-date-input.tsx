import { isCalendarDate, paymentRequestMessages } from '@ledgerline/contract';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { useState, type FormEvent } from 'react';

type CalendarDateInputProps = Omit<DateInputProps, 'value' | 'onChange' | 'dateParser' | 'valueFormat'> & {
  /** A calendar day (YYYY-MM-DD), null when empty, or the text typed when it is not a real day. */
  value?: string | null;
  onChange?: (value: string | null) => void;
};

/**
 * A calendar-day field (issue 10 items 2 and 7): YYYY-MM-DD with no time zone, and typed text is
 * read strictly — 2026-13-45 is an inline error, never rolled over into 2027-02-14. A text that
 * is not a real day reaches the form as typed, so the form's own (contract) validation refuses it
 * too; the field says so as soon as it loses focus.
 */
export function CalendarDateInput({ value, onChange, error, onBlur, ...props }: CalendarDateInputProps) {
  const [typedInvalid, setTypedInvalid] = useState(false);
  const day = value && isCalendarDate(value) ? value : null;
  // Typed text reaches the form when it stops being a day (and on blur, as typed), not on every
  // keystroke; a real day arrives through the picker's own onChange.
  const readTyped = (text: string) => {
    const trimmed = text.trim();
    if (trimmed === '') {
      setTypedInvalid(false);
      if (value) onChange?.(null);
    } else if (!isCalendarDate(trimmed) && (!value || value === day)) {
      onChange?.(trimmed);
    }
  };
  return (
    <DateInput
      {...props}
      value={day}
      onChange={(next) => {
        setTypedInvalid(false);
        onChange?.(next);
      }}
      valueFormat="YYYY-MM-DD"
      dateParser={(text) => (isCalendarDate(text.trim()) ? text.trim() : null)}
      fixOnBlur={false}
      onInput={(event: FormEvent<HTMLInputElement>) => readTyped(event.currentTarget.value)}
      onBlur={(event) => {
        const text = event.currentTarget.value.trim();
        const invalid = text !== '' && !isCalendarDate(text);
        setTypedInvalid(invalid);
        if (invalid && text !== value) onChange?.(text);
        onBlur?.(event);
      }}
      error={error || (typedInvalid ? paymentRequestMessages.dateInvalid : undefined)}
    />
  );
}
