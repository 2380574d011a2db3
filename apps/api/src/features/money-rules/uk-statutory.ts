import Big from 'big.js';
import { addDays, daysBetween, type CalendarDate } from './calendar-date.js';
import { referenceDate, type BankRateHistory } from './bank-rates.js';
import { currencyDecimalPlaces } from '@ledgerline/contract';
import { isPositive, zero } from './money.js';

/** Late Payment of Commercial Debts (Interest) Act 1998: 8 % over the reference rate. */
export const statutoryMargin = new Big(8);

/**
 * Section 5A fixed sums, the debt recovery cost table (spec 3 §3 UK late payment info charges:
 * `to` 0 means 'or more', `from` 0 means 'up to'). In pounds.
 */
export const debtRecoveryCharges = [
  { from: 0, to: 999.99, charge: 40 },
  { from: 1000, to: 9999.99, charge: 70 },
  { from: 10000, to: 0, charge: 100 },
] as const;

const bands = debtRecoveryCharges.map((row) => ({
  from: new Big(row.from),
  to: row.to === 0 ? null : new Big(row.to),
  charge: new Big(row.charge),
}));
const thousand = new Big(1000);
const seventy = new Big(70);
const hundred = new Big(100);

export function fixedSum(debt: Big): Big {
  const band = bands.find((row) => debt.gte(row.from) && (row.to === null || debt.lte(row.to)));
  // Between two bands (e.g. 999.995) the debt belongs to the upper one: the table is in pence.
  return band?.charge ?? (debt.lt(thousand) ? seventy : hundred);
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

// The annual rate (8 % over the reference rate) of each reference rate the history answers.
const annualRates = new WeakMap<Big, Big>();

function annualRateOf(referenceRate: Big): Big {
  let annual = annualRates.get(referenceRate);
  if (annual === undefined) {
    annual = statutoryMargin.plus(referenceRate);
    annualRates.set(referenceRate, annual);
  }
  return annual;
}

export interface StatutoryInput {
  /** The debt: what is still owed on the invoice. */
  debt: Big;
  currency: string;
  dueDate: CalendarDate;
  gracePeriodInDays: number;
  /** The configuration's applyCharges: the fixed sum is charged only when on. */
  applyCharges: boolean;
  paidOn: CalendarDate;
}

export interface StatutoryFees {
  interestStart: CalendarDate;
  /** Null when the history has no Bank Rate for the fixing date (interest is then not charged). */
  referenceRate: Big | null;
  annualRate: Big | null;
  daysLate: number;
  interest: Big;
  fixedSum: Big;
}

/**
 * Statutory interest and the fixed sum for a debt paid on `paidOn`. Interest starts the day after
 * the due date plus the grace period and runs to the payment date inclusive; simple daily
 * interest debt × (8 % + reference) × days ÷ 365, rounded once to the minor unit, half-up.
 * Null when the debt is not late on that day.
 */
export function statutoryFees(
  input: StatutoryInput,
  bankRates: BankRateHistory,
): StatutoryFees | null {
  if (!isPositive(input.debt)) return null;
  const interestStart = addDays(input.dueDate, input.gracePeriodInDays + 1);
  const daysLate = daysBetween(interestStart, input.paidOn) + 1;
  if (daysLate <= 0) return null;
  const referenceRate = bankRates.rateOn(referenceDate(interestStart));
  const annualRate = referenceRate ? annualRateOf(referenceRate) : null;
  const interest = annualRate
    ? dailyInterest(input.debt, annualRate, daysLate, currencyDecimalPlaces(input.currency))
    : zero;
  return {
    interestStart,
    referenceRate,
    annualRate,
    daysLate,
    interest,
    fixedSum: input.applyCharges ? fixedSum(input.debt) : zero,
  };
}
