import Big from 'big.js';
import { currencyDecimalPlaces } from '@ledgerline/contract';

/**
 * Rounding rule of the money rules (docs/decisions.md, "Money rules: rounding"): every line is
 * computed exactly and rounded once, at its end, to the currency's minor unit, half-up.
 */
export function roundToMinorUnit(value: Big, currency: string): Big {
  return value.round(currencyDecimalPlaces(currency), Big.roundHalfUp);
}

export const zero = new Big(0);

export function minBig(a: Big, b: Big): Big {
  return a.lt(b) ? a : b;
}

export function maxBig(a: Big, b: Big): Big {
  return a.gt(b) ? a : b;
}

// A page of 1,000 invoices compares and prices against a handful of configured figures: each is
// parsed once (bounded), not once per invoice.
const parsed = new Map<string | number, Big>();

/** A configured figure (a number from a filter, an amount as text) as a Big, remembered. */
export function bigOf(value: string | number): Big {
  let big = parsed.get(value);
  if (big === undefined) {
    big = new Big(value);
    if (parsed.size >= 10_000) parsed.clear();
    parsed.set(value, big);
  }
  return big;
}

/** A Big as is, or an amount in text parsed. */
export function toBig(value: Big | string): Big {
  return typeof value === 'string' ? new Big(value) : value;
}

/**
 * Above zero, read from big.js's documented sign and coefficient (`s`, `c`): `gt(0)` would build
 * a Big of 0 for every call, and a page asks this several times an invoice.
 */
export function isPositive(value: Big): boolean {
  return value.s === 1 && value.c[0] !== 0;
}
