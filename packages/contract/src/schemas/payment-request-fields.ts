import { z } from 'zod';
import { findCurrency, minorUnitsIssue } from '../reference/currencies.js';
import { calendarDateInput } from './calendar-date.js';
import {
  currencyAliases,
  paymentRequestLimits,
  paymentRequestMessages,
} from './payment-requests.js';

/** The field rules the payment request bodies share (not part of the contract's exports). */

export const m = paymentRequestMessages;

/** Trimmed text; empty or absent becomes null (spec 2 §2: all text values are trimmed). */
export const optionalText = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, m.tooLong(label, max))
    .nullish()
    .transform((value) => (value ? value : null));

/** An optional date: an ISO date or date-time; empty becomes null (spec 2 §5). */
export const optionalDate = z
  .union(
    [
      z.literal(''),
      z.iso.datetime({ offset: true, message: m.dateInvalid }),
      z.iso.date({ message: m.dateInvalid }),
    ],
    {
      message: m.dateInvalid,
    },
  )
  .nullish()
  .transform((value) => (value ? new Date(value).toISOString() : null));

/**
 * A valid-until given as a day ('2026-06-30', as the site's date fields send it)
 * lasts to the end of that day (UTC, as the site shows the day); a date-time stays as given.
 */
export const optionalEndDate = z
  .union(
    [
      z.literal(''),
      z.iso.datetime({ offset: true, message: m.dateInvalid }),
      z.iso.date({ message: m.dateInvalid }),
    ],
    {
      message: m.dateInvalid,
    },
  )
  .nullish()
  .transform((value) =>
    !value
      ? null
      : new Date(
          /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : value,
        ).toISOString(),
  );

/** An optional calendar day; empty becomes null. */
export const optionalDay = z
  .union([z.literal(''), calendarDateInput(m.dateInvalid)], { message: m.dateInvalid })
  .nullish()
  .transform((value) => (value ? value : null));

export const requiredDay = (label: string) => calendarDateInput(`${label} must be a valid date`);

/** A currency as sent: an ISO code, or the dialog's 'YEN' (stored as JPY). */
export const currency = z
  .string({ message: m.currencyRequired })
  .trim()
  .min(1, m.currencyRequired)
  .transform((value) => currencyAliases[value.toUpperCase()] ?? value.toUpperCase())
  .refine((code) => findCurrency(code) !== undefined, m.currencyUnknown);

/** A positive amount; a non-number answers 'Amount must be a number' (spec 2 §5). */
export const positiveAmount = (positive: string = m.amountPositive) =>
  z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? m.amountRequired : m.amountNumber,
    })
    .gt(0, positive)
    .max(paymentRequestLimits.amountMax, m.amountTooLarge)
    .refine(
      (value) => Math.abs(value * 10_000 - Math.round(value * 10_000)) < 1e-6,
      m.amountDecimals,
    );

export const optionalPositive = (message: string) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? m.amountRequired : m.amountNumber) })
    .gt(0, message)
    .max(paymentRequestLimits.amountMax, m.amountTooLarge)
    .nullish()
    .transform((value) => value ?? null);

/** An amount has at most its currency's minor units (JPY 0, KWD 3). */
export function minorUnits(
  ctx: z.RefinementCtx,
  amount: number | null | undefined,
  currency: string | null | undefined,
  path: (string | number)[],
  label = 'Amount',
) {
  // An amount past 4 decimals already has its own message (amountDecimals): one message a field.
  if (typeof amount === 'number' && Math.abs(amount * 10_000 - Math.round(amount * 10_000)) >= 1e-6)
    return;
  const issue = minorUnitsIssue(amount, currency, label);
  if (issue) ctx.addIssue({ code: 'custom', message: issue, path });
}

export const laterOrEqual = (from: string | null, until: string | null) =>
  !from || !until || Date.parse(until) >= Date.parse(from);
