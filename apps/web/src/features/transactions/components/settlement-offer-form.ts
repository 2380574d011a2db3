import {
  createSettlementOfferBody,
  offerableSettlementOfferTypes,
  transactionMessages,
  type CreateSettlementOfferBody,
  type SettlementOffer,
  type TransactionDetail,
} from '@ledgerline/contract';

export type OfferType = (typeof offerableSettlementOfferTypes)[number];

/** What the dialog edits: days as yyyy-MM-dd (calendar days, no time zone), numbers or '' when empty. */
export interface SettlementOfferFormValues {
  type: OfferType;
  description: string;
  validFrom: string | null;
  validUntil: string | null;
  amount: number | string;
  percentageDiscount: number | string;
}

/**
 * spec 2 §2: once a transaction has offers only their types may be added; otherwise any. An
 * edited offer keeps the choice of every type.
 */
export function offerTypeChoices(transaction: TransactionDetail, editing: boolean): OfferType[] {
  const present = new Set(transaction.settlementOffers.map((offer) => offer.type));
  if (editing || present.size === 0) return [...offerableSettlementOfferTypes];
  return offerableSettlementOfferTypes.filter((type) => present.has(type));
}

/** spec 2 §5: on add the percentage starts at 0 and valid-until at the transaction's due date. */
export function initialOfferValues(
  transaction: TransactionDetail,
  offer: SettlementOffer | undefined,
): SettlementOfferFormValues {
  if (offer) {
    return {
      type: offer.type === 'None' ? 'PercentageDiscount' : offer.type,
      description: offer.description ?? '',
      validFrom: offer.validFrom,
      validUntil: offer.validUntil,
      amount: offer.amount ?? '',
      percentageDiscount: offer.percentageDiscount ?? '',
    };
  }
  return {
    type: offerTypeChoices(transaction, false)[0]!,
    description: '',
    validFrom: null,
    validUntil: transaction.dueDate,
    amount: '',
    percentageDiscount: 0,
  };
}

const numberOrText = (value: number | string) =>
  typeof value === 'number' ? value : value.trim() === '' ? undefined : value;

/** spec 2 §5 "Dates are converted before sending": the days go as YYYY-MM-DD. */
export function offerBodyOf(values: SettlementOfferFormValues): Record<string, unknown> {
  const percentage = values.type === 'PercentageDiscount';
  return {
    type: values.type,
    description: values.description,
    validFrom: values.validFrom || null,
    validUntil: values.validUntil || null,
    amount: percentage ? null : numberOrText(values.amount),
    percentageDiscount: percentage ? numberOrText(values.percentageDiscount) : null,
  };
}

/** The contract's rules, and the amount bound by what is still owed (spec 2 §5), as form errors. */
export function validateOffer(
  values: SettlementOfferFormValues,
  amountOwed: number,
): Record<string, string> {
  const parsed = createSettlementOfferBody.safeParse(offerBodyOf(values));
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'type');
      errors[field] ??= issue.message;
    }
    return errors;
  }
  const body: CreateSettlementOfferBody = parsed.data;
  if (
    values.type !== 'PercentageDiscount' &&
    typeof body.amount === 'number' &&
    body.amount > amountOwed
  ) {
    errors.amount = transactionMessages.offerAmountRange;
  }
  return errors;
}
