import Big from 'big.js';
import type { CalendarDate } from './calendar-date.js';

/** A Bank of England Bank Rate change: the rate (a percentage, '5.25') in force from a date. */
export interface BankRateChange {
  from: CalendarDate;
  rate: string;
}

/**
 * The history the reference file gives (../shared/reference/uk-late-payment.md), seeded into the
 * bank_rates table by migration 0008. Later changes are data: `npm run admin -- set-bank-rate`.
 * 2018-08-02 0.75 is the rate in force on 31 December 2019 (the 2020 H1 reference rate).
 */
export const seededBankRates: readonly BankRateChange[] = [
  { from: '2018-08-02', rate: '0.75' },
  { from: '2020-03-11', rate: '0.25' },
  { from: '2020-03-19', rate: '0.10' },
  { from: '2021-12-16', rate: '0.25' },
  { from: '2022-02-03', rate: '0.50' },
  { from: '2022-03-17', rate: '0.75' },
  { from: '2022-05-05', rate: '1.00' },
  { from: '2022-06-16', rate: '1.25' },
  { from: '2022-08-04', rate: '1.75' },
  { from: '2022-09-22', rate: '2.25' },
  { from: '2022-11-03', rate: '3.00' },
  { from: '2022-12-15', rate: '3.50' },
  { from: '2023-02-02', rate: '4.00' },
  { from: '2023-03-23', rate: '4.25' },
  { from: '2023-05-11', rate: '4.50' },
  { from: '2023-06-22', rate: '5.00' },
  { from: '2023-08-03', rate: '5.25' },
  { from: '2024-08-01', rate: '5.00' },
  { from: '2024-11-07', rate: '4.75' },
  { from: '2025-02-06', rate: '4.50' },
  { from: '2025-05-08', rate: '4.25' },
  { from: '2025-08-07', rate: '4.00' },
  { from: '2025-12-18', rate: '3.75' },
];

/**
 * The Bank Rates in force, sorted by date; asks which rate held on a day. Null before the first
 * change the history knows.
 */
export function createBankRateHistory(changes: readonly BankRateChange[]) {
  const sorted = [...changes].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const rates = sorted.map((change) => new Big(change.rate));
  // Invoices of one page share a handful of fixing dates.
  const byDay = new Map<CalendarDate, Big | null>();
  return {
    changes: sorted,
    rateOn(day: CalendarDate): Big | null {
      if (byDay.has(day)) return byDay.get(day)!;
      let found: Big | null = null;
      for (let i = 0; i < sorted.length && sorted[i]!.from <= day; i++) found = rates[i]!;
      byDay.set(day, found);
      return found;
    },
  };
}
export type BankRateHistory = ReturnType<typeof createBankRateHistory>;

/**
 * Late Payment Act reference rate for interest that starts on `interestStart`: the Bank Rate in
 * force on 31 December before for a start from 1 January to 30 June, on 30 June for a start from
 * 1 July to 31 December. It holds for the life of the debt.
 */
export function referenceDate(interestStart: CalendarDate): CalendarDate {
  const year = Number(interestStart.slice(0, 4));
  const month = Number(interestStart.slice(5, 7));
  return month <= 6 ? `${year - 1}-12-31` : `${year}-06-30`;
}
