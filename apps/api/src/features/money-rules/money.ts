import Big from 'big.js';
import { currencyDecimalPlaces } from '@ledgerline/contract';

/**
 * Rounding rule of the money rules (docs/decisions/035-money-rules-one-engine-rules-read-once-per.md, "Money rules: rounding"): every line is
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

/** A non-negative decimal as an integer and its power of ten: 12.345 → [12345n, 3]. */
function scaled(value: Big): [bigint, number] {
  const text = value.toFixed();
  const point = text.indexOf('.');
  return point < 0
    ? [BigInt(text), 0]
    : [BigInt(text.slice(0, point) + text.slice(point + 1)), text.length - point - 1];
}

// The few annual rates of a page, scaled once.
const scaledRates = new WeakMap<Big, [bigint, number]>();

/**
 * debt × rate % × days ÷ 365, rounded half-up to `places` decimals, in exact integer arithmetic
 * (the same figure as big.js, without its twenty-digit division for every late invoice).
 */
export function dailyInterest(debt: Big, ratePercent: Big, days: number, places: number): Big {
  const [d, dScale] = scaled(debt);
  let rate = scaledRates.get(ratePercent);
  if (rate === undefined) {
    rate = scaled(ratePercent);
    scaledRates.set(ratePercent, rate);
  }
  const [r, rScale] = rate;
  const numerator = d * r * BigInt(days) * 10n ** BigInt(places);
  const denominator = 36500n * 10n ** BigInt(dScale + rScale);
  const units = ((2n * numerator + denominator) / (2n * denominator)).toString();
  if (places === 0) return new Big(units);
  // The units with the decimal point put back: 5 at 2 places is 0.05.
  const digits = units.padStart(places + 1, '0');
  return new Big(`${digits.slice(0, -places)}.${digits.slice(-places)}`);
}

const hundred = new Big(100);
const fractions = new Map<string, Big>();

/** A percentage as a fraction, held between 0 and 1 (a percentage never goes below zero). */
function fractionOf(percentage: string): Big {
  let fraction = fractions.get(percentage);
  if (!fraction) {
    fraction = minBig(maxBig(new Big(percentage), zero), hundred).div(100);
    if (fractions.size > 10_000) fractions.clear();
    fractions.set(percentage, fraction);
  }
  return fraction;
}

/**
 * The arithmetic the engine prices with (`A`, an amount). Two implement it with the same rules:
 * `unitArithmetic` (units.ts: whole ten-thousandths in safe integers, the one a quote uses) and
 * `bigArithmetic` (big.js: any size and precision, the one a quote falls back to and the reference
 * the property tests hold the other to). Every rounding is the rule above: half-up (half away
 * from zero), to the currency's minor unit, once at the end of a line.
 */
export interface Arithmetic<A> {
  /** An amount of an invoice: text, a number (read as `String(n)` spells it, as big.js does) or a Big. */
  amount(value: string | number | Big): A;
  /** A configured figure (a filter bound, an offer's amount): remembered, as a page repeats a few. */
  figure(value: string | number): A;
  zero: A;
  plus(a: A, b: A): A;
  minus(a: A, b: A): A;
  /** −1, 0 or 1 as `a` is below, equal to or above `b`. */
  cmp(a: A, b: A): number;
  isPositive(a: A): boolean;
  /** outstanding × percentage ÷ 100, the percentage held between 0 and 100, rounded to the currency's minor unit. */
  percentOf(outstanding: A, percentage: string, currency: string): A;
  /** The discount held between 0 and what is outstanding, rounded to the currency's minor unit. */
  clampDiscount(discount: A, outstanding: A, currency: string): A;
  /** debt × rate % × days ÷ 365 rounded to `places` decimals (`dailyInterest`). */
  dailyInterest(debt: A, ratePercent: Big, days: number, places: number): A;
  /** As big.js's `toFixed()`: every significant decimal, no trailing zeros, never an exponent. */
  text(a: A): string;
  /** As big.js's `toFixed(2)`: two decimals, rounded half-up. */
  text2(a: A): string;
}

export const bigArithmetic: Arithmetic<Big> = {
  amount: (value) => (typeof value === 'object' ? value : new Big(value)),
  figure: bigOf,
  zero,
  plus: (a, b) => a.plus(b),
  minus: (a, b) => a.minus(b),
  cmp: (a, b) => a.cmp(b),
  isPositive,
  percentOf: (outstanding, percentage, currency) =>
    roundToMinorUnit(outstanding.times(fractionOf(percentage)), currency),
  clampDiscount: (discount, outstanding, currency) =>
    roundToMinorUnit(minBig(maxBig(discount, zero), outstanding), currency),
  dailyInterest,
  text: (a) => a.toFixed(),
  text2: (a) => a.toFixed(2),
};
