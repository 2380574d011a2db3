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
