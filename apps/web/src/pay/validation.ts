import type { SandboxCardBody, StartPaymentBody } from '@ledgerline/contract';
import { currencyDecimals, formatMoney } from './format';

/**
 * The forms' rules, with the messages of the contract's schemas (startPaymentBodySchema,
 * sandboxCardBodySchema in packages/contract schemas/pay.ts), which the server answers with too.
 * They are written out here rather than imported because zod would be a quarter of the page's
 * first load (docs/decisions/062-the-payer-page-s-bundle.md "The payer page's bundle"); validation.test.ts runs the same
 * inputs through both and fails when they disagree.
 */

export type FieldErrors = Record<string, string>;

/** The contract's messages (schemas/pay.ts). */
export const payMessages = {
  configurationId: 'Choose how to pay',
  amountNumber: 'Amount must be a number',
  amountPositive: 'Amount must be greater than 0',
  email: 'Enter a valid email address',
  cardholderName: 'Enter the name on the card',
  cardNumber: 'Enter a card number of 12 to 19 digits',
  expiry: 'Enter the expiry as MM/YY',
  cvc: 'Enter the 3 or 4 digit security code',
};

/** zod 4's `z.email()` pattern, which the contract's emailAddress uses. */
const emailPattern =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export interface PayerValues {
  firstNames: string;
  surname: string;
  emailAddress: string;
}

export interface PaymentFormValues {
  configurationId: string;
  payer: PayerValues;
  /** The part amount as typed, for requests that allow paying part. */
  amount: string;
  /** Editable invoices: the amount as typed, and whether a not-required one is left out. */
  invoices?: Record<string, InvoiceAmountValue>;
  /** The save-card box of the chosen method, where it offers one (PayMethod.saveCard). */
  saveCard?: boolean;
}

export interface InvoiceAmountValue {
  amount: string;
  leftOut: boolean;
}

/** An invoice whose amount the payer may change (PayInvoice.editable), with what it costs in full. */
export interface InvoiceAmountRule {
  transactionId: string;
  reference: string;
  minimumAmount: number;
  maximumAmount: number;
  required: boolean;
  /** Paid in full: after its discount, with its fees. */
  amountToPay: number;
  /** What the request asks of it (the form starts there). */
  askedAmount: number;
  outstandingAmount: number;
  currency: string;
}

export const nothingChosenMessage = 'Choose at least one invoice to pay.';

/** The words of an editable invoice's amount (the server's 422s say the same, with the invoice). */
export function invoiceAmountError(
  value: InvoiceAmountValue,
  rule: InvoiceAmountRule,
): string | null {
  if (value.leftOut && !rule.required) return null;
  const message = partAmountError(value.amount, rule);
  if (message) return message;
  const amount = Number(value.amount.trim().replace(/,/g, ''));
  if (amount < rule.amountToPay && amount > rule.outstandingAmount)
    return `Pay ${formatMoney(rule.amountToPay, rule.currency)} (in full) or at most ${formatMoney(rule.outstandingAmount, rule.currency)}: late fees are paid only with the whole invoice`;
  return null;
}

/** What an editable invoice adds to the total as typed (0 when left out or not a number yet). */
export function chosenAmount(
  value: InvoiceAmountValue | undefined,
  rule: InvoiceAmountRule,
): number {
  if (!value) return rule.amountToPay;
  if (value.leftOut && !rule.required) return 0;
  const amount = Number(value.amount.trim().replace(/,/g, ''));
  return Number.isFinite(amount) && amount > 0 ? amount : 0;
}

export interface PartPaymentRule {
  minimumAmount: number;
  maximumAmount: number;
  currency: string;
}

export const nameRequiredMessages = {
  firstNames: 'Enter your first names',
  surname: 'Enter your surname',
};
export const emailRequiredMessage = 'Enter your email address for the receipt';

function partAmountError(typed: string, rule: PartPaymentRule): string | null {
  const text = typed.trim().replace(/,/g, '');
  const amount = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(amount)) return payMessages.amountNumber;
  if (amount <= 0) return payMessages.amountPositive;
  const decimals = currencyDecimals(rule.currency);
  const [, fraction = ''] = text.split('.');
  if (fraction.length > decimals) {
    return decimals === 0
      ? 'Enter a whole amount'
      : `Enter the amount with at most ${decimals} decimal places`;
  }
  if (amount < rule.minimumAmount)
    return `Enter at least ${formatMoney(rule.minimumAmount, rule.currency)}`;
  if (amount > rule.maximumAmount)
    return `Enter no more than ${formatMoney(rule.maximumAmount, rule.currency)}`;
  return null;
}

/** The body of `POST payments`, or the fields' messages (keyed as the form names its fields). */
export function validatePayment(
  values: PaymentFormValues,
  partPayment: PartPaymentRule | null,
  invoiceRules: InvoiceAmountRule[] = [],
  /** What the invoices the payer cannot change add up to. */
  fixedTotal = 0,
): { body: StartPaymentBody } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const payer = {
    firstNames: values.payer.firstNames.trim(),
    surname: values.payer.surname.trim(),
    emailAddress: values.payer.emailAddress.trim(),
  };
  if (!values.configurationId) errors.configurationId = payMessages.configurationId;
  if (!payer.firstNames) errors['payer.firstNames'] = nameRequiredMessages.firstNames;
  if (!payer.surname) errors['payer.surname'] = nameRequiredMessages.surname;
  if (!payer.emailAddress) errors['payer.emailAddress'] = emailRequiredMessage;
  let amount: number | undefined;
  if (partPayment) {
    const message = partAmountError(values.amount, partPayment);
    if (message) errors.amount = message;
    else amount = Number(values.amount.trim().replace(/,/g, ''));
  }
  // Editable invoices: fields named as the server's errors name them (invoices.{index}.amount).
  const invoices: { transactionId: string; amount: number }[] = [];
  for (const [index, rule] of invoiceRules.entries()) {
    const value = values.invoices?.[rule.transactionId] ?? {
      amount: rule.maximumAmount.toFixed(currencyDecimals(rule.currency)),
      leftOut: false,
    };
    const message = invoiceAmountError(value, rule);
    if (message) errors[`invoices.${index}.amount`] = message;
    else invoices.push({ transactionId: rule.transactionId, amount: chosenAmount(value, rule) });
  }
  if (
    invoiceRules.length > 0 &&
    invoices.length === invoiceRules.length &&
    invoices.reduce((sum, invoice) => sum + invoice.amount, fixedTotal) <= 0
  )
    errors.invoices = nothingChosenMessage;
  if (
    payer.emailAddress &&
    (!emailPattern.test(payer.emailAddress) || payer.emailAddress.length > 200)
  )
    errors['payer.emailAddress'] = payMessages.email;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      configurationId: values.configurationId,
      ...(amount === undefined ? {} : { amount }),
      ...(invoices.length > 0 ? { invoices } : {}),
      ...(values.saveCard === undefined ? {} : { saveCard: values.saveCard }),
      payer,
    },
  };
}

export interface SandboxCardValues {
  cardholderName: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
}

export function validateSandboxCard(
  values: SandboxCardValues,
): { body: SandboxCardBody } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const cardholderName = values.cardholderName.trim();
  const cardNumber = values.cardNumber.replace(/[\s-]/g, '');
  if (cardholderName.length < 1 || cardholderName.length > 100)
    errors.cardholderName = payMessages.cardholderName;
  if (!/^\d{12,19}$/.test(cardNumber)) errors.cardNumber = payMessages.cardNumber;
  if (!/^(0[1-9]|1[0-2])\/\d{2}$/.test(values.expiry)) errors.expiry = payMessages.expiry;
  if (!/^\d{3,4}$/.test(values.cvc)) errors.cvc = payMessages.cvc;
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { cardholderName, cardNumber, expiry: values.expiry, cvc: values.cvc } };
}

/** A server's 400 `errors` (field → messages) as the form shows them: the first of each. */
export function serverFieldErrors(errors: Record<string, string[]>): FieldErrors {
  const shown: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    if (messages[0]) shown[field] = messages[0];
  }
  return shown;
}
