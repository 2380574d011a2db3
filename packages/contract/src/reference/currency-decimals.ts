/**
 * ISO 4217 minor units of the currencies whose minor units are not 2 (the list in currencies.ts;
 * a contract test keeps the two in step). Apart from that list so the site's first load can
 * format money without the 160 currencies' names.
 */
const decimalsOtherThanTwo: Readonly<Record<string, number>> = {
  BHD: 3,
  BIF: 0,
  CLF: 4,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  UYI: 0,
  UYW: 4,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

/** Minor units of a currency; 2 for a code that is not in the list. */
export function currencyDecimalPlaces(code: string): number {
  return decimalsOtherThanTwo[code.toUpperCase()] ?? 2;
}

/**
 * An amount saved in a currency has at most that currency's minor units (JPY 0,
 * GBP 2, KWD 3). The message naming the field, or null when the amount fits (docs/decisions/140-amounts-follow-the-currency-s-minor-units.md,
 * "Amounts follow the currency's minor units").
 */
export function minorUnitsIssue(
  amount: number | null | undefined,
  currency: string | null | undefined,
  label = 'Amount',
): string | null {
  if (amount === null || amount === undefined || !currency || !Number.isFinite(amount)) return null;
  const places = currencyDecimalPlaces(currency);
  const scaled = amount * 10 ** places;
  if (Math.abs(scaled - Math.round(scaled)) < 1e-6) return null;
  return minorUnitsMessage(label, currency.toUpperCase(), places);
}

export function minorUnitsMessage(label: string, currency: string, places: number): string {
  return places === 0
    ? `${label} must be a whole number in ${currency}`
    : `${label} can have at most ${places} decimal places in ${currency}`;
}
