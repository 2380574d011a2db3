import type Big from 'big.js';
import { currencyDecimalPlaces } from '@ledgerline/contract';
import type { Arithmetic } from './money.js';

/**
 * An amount in whole ten-thousandths — the unit amounts are stored in (numeric(19,4)), so every
 * stored amount is a whole number of them — held as a safe integer: 12.5 → 125000. Discounts and
 * fees come out as whole minor units of their currency (multiples of 100 for pence).
 */
export type Units = number;

/**
 * Thrown by `unitArithmetic` when an amount does not fit: more than four decimals, too large for
 * a safe integer, a figure big.js would read differently. The quote then prices that invoice
 * with big.js instead (quote.ts), so the answer never changes, only its cost.
 */
export class OutOfUnits extends Error {
  constructor() {
    super('Amount outside whole ten-thousandths in safe integers');
  }
}
// One instance: a throw that is caught a frame up needs no fresh stack.
const outOfUnits = new OutOfUnits();

const perUnit = 10_000;
const powers = [1, 10, 100, 1_000, 10_000];
/** |value| below 10¹¹: its units stay under 10¹⁵, far inside Number.MAX_SAFE_INTEGER. */
const largestUnits = 1e15;

function checked(units: number): Units {
  if (!(units <= largestUnits && units >= -largestUnits)) throw outOfUnits;
  return units;
}

// Digits, an optional point with at most four decimals (trailing zeros after them allowed): the
// forms numeric columns and configured figures take. Anything else (an exponent, more decimals)
// is big.js's to read.
const decimal = /^(-?)(\d{1,11})(?:\.(\d{0,4})0*)?$/;

function fromText(text: string): Units {
  const match = decimal.exec(text);
  if (match === null) throw outOfUnits;
  const fraction = match[3] ?? '';
  const units =
    Number(match[2]) * perUnit +
    (fraction === '' ? 0 : Number(fraction) * powers[4 - fraction.length]!);
  // −0 reads as 0, as big.js prints it.
  return match[1] === '-' && units !== 0 ? -units : units;
}

/**
 * A number as big.js reads it (`String(n)`): below 10¹¹, a number whose units divided back give
 * the number itself has a shortest spelling of at most four decimals (two multiples of 1/10,000
 * cannot round to one double there), so the units are exact.
 */
function fromNumber(value: number): Units {
  const units = Math.round(value * perUnit);
  if (units / perUnit !== value || !(units <= largestUnits && units >= -largestUnits))
    throw outOfUnits;
  return units === 0 ? 0 : units;
}

const figures = new Map<string | number, Units>();

function figureOf(value: string | number): Units {
  let units = figures.get(value);
  if (units === undefined) {
    units = typeof value === 'number' ? fromNumber(value) : fromText(value);
    if (figures.size >= 10_000) figures.clear();
    figures.set(value, units);
  }
  return units;
}

const rates = new WeakMap<Big, Units>();

function rateOf(ratePercent: Big): Units {
  let units = rates.get(ratePercent);
  if (units === undefined) {
    units = fromText(ratePercent.toFixed());
    rates.set(ratePercent, units);
  }
  return units;
}

const minorUnits = new Map<string, number | undefined>();

/** Ten-thousandths per minor unit of a currency: 100 for pence, 1 for a four-decimal currency. */
function minorUnitOf(currency: string): number {
  let step = minorUnits.get(currency);
  if (step === undefined) {
    step = powers[4 - currencyDecimalPlaces(currency)];
    if (step === undefined) throw outOfUnits;
    if (minorUnits.size >= 1_000) minorUnits.clear();
    minorUnits.set(currency, step);
  }
  return step;
}

/** `units` rounded to a multiple of `step`, half away from zero (big.js's roundHalfUp). */
function roundTo(units: Units, step: number): Units {
  if (step === 1) return units;
  const magnitude = units < 0 ? -units : units;
  const rest = magnitude % step;
  const rounded = magnitude - rest + (2 * rest >= step ? step : 0);
  return units < 0 ? -rounded || 0 : rounded;
}

/**
 * a × b ÷ divisor rounded half away from zero, exactly: in safe integers when the product is one
 * (a product that rounds to at most 2⁵³ − 1 was below 2⁵³, hence exact), else in BigInt.
 */
function mulDivRound(a: number, b: number, divisor: number): number {
  const product = a * b;
  const negative = product < 0;
  if (product <= Number.MAX_SAFE_INTEGER && product >= -Number.MAX_SAFE_INTEGER) {
    const magnitude = negative ? -product : product;
    const rest = magnitude % divisor;
    const quotient = (magnitude - rest) / divisor + (2 * rest >= divisor ? 1 : 0);
    return negative ? -quotient || 0 : quotient;
  }
  const big = BigInt(a) * BigInt(b);
  const magnitude = big < 0n ? -big : big;
  const d = BigInt(divisor);
  const quotient = Number((2n * magnitude + d) / (2n * d));
  return negative ? -quotient : quotient;
}

// The decimals of each fraction of a unit (1234 → '1234', 1200 → '12', 5 → '0005'), made when
// first printed: a page prints thousands of amounts, and printing a double is slower.
const decimalsOf = new Array<string | undefined>(perUnit).fill(undefined);

/** As big.js prints it: every significant decimal, no trailing zeros. */
function text(units: Units): string {
  if (units === 0) return '0';
  const magnitude = units < 0 ? -units : units;
  const rest = magnitude % perUnit;
  let digits = String((magnitude - rest) / perUnit);
  if (rest !== 0) {
    let decimals = decimalsOf[rest];
    if (decimals === undefined) {
      decimals = String(rest).padStart(4, '0').replace(/0+$/, '');
      decimalsOf[rest] = decimals;
    }
    digits = `${digits}.${decimals}`;
  }
  return units < 0 ? `-${digits}` : digits;
}

function text2(units: Units): string {
  // A negative amount is never printed with two decimals (fees are positive): big.js's to print.
  if (units < 0) throw outOfUnits;
  const cents = roundTo(units, 100) / 100;
  const rest = cents % 100;
  return `${(cents - rest) / 100}.${String(rest).padStart(2, '0')}`;
}

/** The money rules in whole ten-thousandths (see `Arithmetic`); throws `OutOfUnits` past them. */
export const unitArithmetic: Arithmetic<Units> = {
  amount: (value) =>
    typeof value === 'number'
      ? fromNumber(value)
      : fromText(typeof value === 'string' ? value : value.toFixed()),
  figure: figureOf,
  zero: 0,
  plus: (a, b) => checked(a + b),
  minus: (a, b) => checked(a - b),
  cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  isPositive: (a) => a > 0,
  percentOf(outstanding, percentage, currency) {
    // A percentage in ten-thousandths of a percent, held between 0 and 100 %.
    const percent = Math.min(Math.max(figureOf(percentage), 0), 100 * perUnit);
    const step = minorUnitOf(currency);
    // outstanding × percent ÷ (100 × 10,000) is the exact discount in units; rounded to a step.
    return mulDivRound(outstanding, percent, 100 * perUnit * step) * step;
  },
  clampDiscount(discount, outstanding, currency) {
    // As big.js's min(max(discount, 0), outstanding): the outstanding amount wins.
    const atLeastZero = discount < 0 ? 0 : discount;
    return roundTo(atLeastZero > outstanding ? outstanding : atLeastZero, minorUnitOf(currency));
  },
  dailyInterest(debt, ratePercent, days, places) {
    const step = powers[4 - places];
    // A debt is positive here (statutory fees); anything else is big.js's to round.
    if (step === undefined || debt < 0) throw outOfUnits;
    // debt/10⁴ × rate/10⁴ × days ÷ 36,500 in units of 10⁻places: debt × rate × days ÷ (365 × 10^(10 − places)).
    const perDay = rateOf(ratePercent) * days;
    return checked(mulDivRound(debt, perDay, 365 * 10 ** (10 - places)) * step);
  },
  text,
  text2,
};
