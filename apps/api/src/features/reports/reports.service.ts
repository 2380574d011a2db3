import Big from 'big.js';
import type {
  AgedReceivables,
  AgedReceivablesQuery,
  AgedReceivablesRow,
  DashboardFigures,
  DashboardFiguresQuery,
} from '@ledgerline/contract';
import { agingBuckets } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { formatCsvField } from '../../platform/csv.js';
import { today } from '../money-rules/index.js';
import {
  agedReport,
  companyCurrency,
  failedPayments,
  monthFigures,
  overdueInvoiceCount,
  type MonthFigures,
} from './reports.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

/** `GET reports/aged-receivables`, a page of it or (CSV) every row. */
export async function agedReceivables(
  executor: Executor,
  scope: DatasetScope,
  query: AgedReceivablesQuery,
  everyRow = false,
): Promise<AgedReceivables> {
  const now = today();
  const asOf = query.asOf ?? now;
  const currency = query.currency ?? (await companyCurrency(executor, scope));
  const report = await agedReport(executor, scope, {
    asOf,
    today: now,
    basis: query.basis,
    currency,
    sort: query.sort,
    limit: everyRow ? null : query.itemsPerPage,
    offset: everyRow ? 0 : (query.page - 1) * query.itemsPerPage,
  });
  return { asOf, basis: query.basis, currency, ...report };
}

const csvColumns = [
  'AccountId',
  'AccountReference',
  'Name',
  'Current',
  'Days1To30',
  'Days31To60',
  'Days61To90',
  'Over90',
  'Total',
] as const;

/** The report as RFC 4180 CSV: a header, one line an account, and a Total line for the company. */
export function agedReceivablesCsv(report: AgedReceivables): string {
  const line = (fields: string[]) => `${fields.map(formatCsvField).join(',')}\r\n`;
  const figures = (row: Omit<AgedReceivablesRow, 'accountId' | 'accountReference' | 'name'>) =>
    [...agingBuckets, 'total' as const].map((bucket) => new Big(row[bucket]).toFixed(2));
  let text = line([...csvColumns]);
  for (const row of report.items)
    text += line([row.accountId, row.accountReference, row.name, ...figures(row)]);
  text += line(['', '', 'Total', ...figures(report.totals)]);
  return text;
}

/** YYYY-MM-01 of the month `monthsBack` months before `day`'s. */
function firstOfMonth(day: string, monthsBack: number): string {
  const date = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - monthsBack);
  return date.toISOString().slice(0, 10);
}

/** Days of `day`'s month up to and including it, and of each whole month. */
function daysInMonth(month: string): number {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index, 0)).getUTCDate();
}

/**
 * Days sales outstanding by the countback method (docs/decisions/138-dso-by-countback-and-the-dashboard-s-money.md "DSO by countback"): from
 * what is owed today, take away each month's sales, newest first (this month's up to today); a
 * month wholly covered adds its days, the month the balance runs out in adds its share of days.
 * Null when nothing was sold in the window; the window's days when the debt outlasts it.
 */
export function countbackDso(
  outstanding: number,
  months: MonthFigures[],
  asOf: string,
): number | null {
  if (months.every((month) => month.sales === 0)) return null;
  let left = new Big(outstanding);
  let days = new Big(0);
  if (left.lte(0)) return 0;
  for (let i = months.length - 1; i >= 0; i--) {
    const month = months[i]!;
    const monthDays =
      month.month === asOf.slice(0, 7) ? Number(asOf.slice(8, 10)) : daysInMonth(month.month);
    const sales = new Big(month.sales);
    if (left.lte(sales)) {
      days = days.plus(left.div(sales).times(monthDays));
      return Number(days.toFixed(1));
    }
    left = left.minus(sales);
    days = days.plus(monthDays);
  }
  return Number(days.toFixed(1));
}

/** The dashboard's money figures. */
export async function dashboardFigures(
  executor: Executor,
  scope: DatasetScope,
  query: DashboardFiguresQuery,
): Promise<DashboardFigures> {
  const asOf = today();
  const currency = query.currency ?? (await companyCurrency(executor, scope));
  const aged = await agedReport(executor, scope, {
    asOf,
    today: asOf,
    basis: 'DueDate',
    currency,
    sort: '-total',
    limit: 0,
    offset: 0,
  });
  // DSO counts back over twelve months at least, whatever the chart shows.
  const window = Math.max(query.months, 12);
  const months = await monthFigures(
    executor,
    scope,
    firstOfMonth(asOf, window - 1),
    asOf,
    currency,
  );
  const failed = await failedPayments(
    executor,
    scope,
    firstOfMonth(asOf, query.months - 1),
    asOf,
    currency,
  );
  const { totals } = aged;
  const overdue = new Big(totals.total).minus(totals.current);
  return {
    asOf,
    currency,
    outstanding: totals.total,
    overdue: Number(overdue.toFixed(4)),
    overdueInvoices: await overdueInvoiceCount(executor, scope, asOf, currency),
    failedPayments: failed.count,
    failedAmount: failed.amount,
    dso: countbackDso(totals.total, months, asOf),
    months: months.slice(-query.months).map(({ month, collected, fallingDue }) => ({
      month,
      collected,
      fallingDue,
    })),
  };
}
