import Big from 'big.js';
import { addDays, daysBetween, type CalendarDate } from './calendar-date.js';
import { referenceDate, type BankRateHistory } from './bank-rates.js';
import { currencyDecimalPlaces } from '@ledgerline/contract';
import { bigArithmetic, type Arithmetic } from './money.js';

export { dailyInterest } from './money.js';

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

interface Bands<A> {
  rows: { from: A; to: A | null; charge: A }[];
  thousand: A;
  seventy: A;
  hundred: A;
}

// The table in each arithmetic's amounts, made once.
const bandsByArithmetic = new WeakMap<Arithmetic<unknown>, Bands<unknown>>();

function bandsIn<A>(ar: Arithmetic<A>): Bands<A> {
  let bands = bandsByArithmetic.get(ar as Arithmetic<unknown>) as Bands<A> | undefined;
  if (bands === undefined) {
    bands = {
      rows: debtRecoveryCharges.map((row) => ({
        from: ar.figure(row.from),
        to: row.to === 0 ? null : ar.figure(row.to),
        charge: ar.figure(row.charge),
      })),
      thousand: ar.figure(1000),
      seventy: ar.figure(70),
      hundred: ar.figure(100),
    };
    bandsByArithmetic.set(ar as Arithmetic<unknown>, bands);
  }
  return bands;
}

function fixedSumIn<A>(ar: Arithmetic<A>, debt: A): A {
  const bands = bandsIn(ar);
  const band = bands.rows.find(
    (row) => ar.cmp(debt, row.from) >= 0 && (row.to === null || ar.cmp(debt, row.to) <= 0),
  );
  // Between two bands (e.g. 999.995) the debt belongs to the upper one: the table is in pence.
  return band?.charge ?? (ar.cmp(debt, bands.thousand) < 0 ? bands.seventy : bands.hundred);
}

export function fixedSum(debt: Big): Big {
  return fixedSumIn(bigArithmetic, debt);
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

export interface StatutoryInput<A = Big> {
  /** The debt: what is still owed on the invoice. */
  debt: A;
  currency: string;
  dueDate: CalendarDate;
  gracePeriodInDays: number;
  /** The configuration's applyCharges: the fixed sum is charged only when on. */
  applyCharges: boolean;
  paidOn: CalendarDate;
}

export interface StatutoryFees<A = Big> {
  interestStart: CalendarDate;
  /** Null when the history has no Bank Rate for the fixing date (interest is then not charged). */
  referenceRate: Big | null;
  annualRate: Big | null;
  daysLate: number;
  interest: A;
  fixedSum: A;
}

/**
 * Statutory interest and the fixed sum for a debt paid on `paidOn`. Interest starts the day after
 * the due date plus the grace period and runs to the payment date inclusive; simple daily
 * interest debt × (8 % + reference) × days ÷ 365, rounded once to the minor unit, half-up.
 * Null when the debt is not late on that day.
 */
export function statutoryFeesIn<A>(
  ar: Arithmetic<A>,
  input: StatutoryInput<A>,
  bankRates: BankRateHistory,
): StatutoryFees<A> | null {
  if (!ar.isPositive(input.debt)) return null;
  const interestStart = addDays(input.dueDate, input.gracePeriodInDays + 1);
  const daysLate = daysBetween(interestStart, input.paidOn) + 1;
  if (daysLate <= 0) return null;
  const referenceRate = bankRates.rateOn(referenceDate(interestStart));
  const annualRate = referenceRate ? annualRateOf(referenceRate) : null;
  const interest = annualRate
    ? ar.dailyInterest(input.debt, annualRate, daysLate, currencyDecimalPlaces(input.currency))
    : ar.zero;
  return {
    interestStart,
    referenceRate,
    annualRate,
    daysLate,
    interest,
    fixedSum: input.applyCharges ? fixedSumIn(ar, input.debt) : ar.zero,
  };
}

/** `statutoryFeesIn` with big.js amounts. */
export function statutoryFees(
  input: StatutoryInput,
  bankRates: BankRateHistory,
): StatutoryFees | null {
  return statutoryFeesIn(bigArithmetic, input, bankRates);
}
