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
