import type { Executor } from '../../db/client.js';
import type { DatasetScope } from '../../platform/scope.js';
import {
  insertPayments,
  allocatePayments,
  settleInvoicesAndRequests,
  chargeLateFees,
  recordProviderEvents,
  offerDiscounts,
  updateBalances,
  attachInvoicePdfs,
  insertBanks,
} from './demo-payments.repository.js';
import {
  analyzeTable,
  clearReceivables,
  utcDayOf,
  insertAccounts,
  insertPayers,
  numberRequests,
  insertInvoices,
  insertRequests,
  allocateRequests,
  type DemoRun,
} from './demo-receivables.repository.js';

export interface DemoDataSize {
  accounts: number;
  /** Accounting transactions (invoices, credit notes...) spread over the accounts. */
  transactions: number;
  paymentRequests: number;
  paymentTransactions: number;
  banks: number;
}

/** What a new or reset demo company gets: enough to click through every screen. */
export const demoCompanySize: DemoDataSize = {
  accounts: 40,
  transactions: 300,
  paymentRequests: 120,
  paymentTransactions: 300,
  banks: 4,
};
export { clearReceivables };

// Realistic-looking receivables made by the database itself (INSERT ... SELECT generate_series), so
// the same generator fills a demo company in milliseconds and a benchmark's million rows in
// seconds. Values derive from the row number, so a given size always gives the same data, spread
// over the last two years up to `now`.
//
// The data follows the product's own rules and runs forward in time. An invoice is
// issued, then a request asks for it (a Transaction request allocates one or two invoices), then
// the payer's attempts arrive after the request (failures first; a Single request stops at its
// outcome, a Multiple one is paid in instalments), then each captured payment is allocated to the
// request's invoices in due-date order, each up to what it still owes (the rule a capture uses,
// pay/lifecycle.ts confirm), an overdue invoice paid late carries the statutory
// fixed sum as a late-payment fee line, and every payment has the provider event that said so.
// Invoices' allocated amount and paid status and requests' status are then computed from those
// payments and allocations. Pending payments (Reserve requests) are authorised, not yet allocated.
// Every payment goes through Ledgerline's Sandbox provider (a demo company's own configuration).

export interface GenerateOptions {
  now?: Date;
  /**
   * ANALYZE each parent table once filled (needs the owner's connection). For large sizes: the
   * foreign-key checks of the next insert are planned from the table's statistics, and a table
   * the planner believes empty is checked by sequential scans, quadratically.
   */
  analyze?: boolean;
  /**
   * The Sandbox configuration the payments name (a demo company's own); none for data
   * made outside a company's lifecycle (tests, benches).
   */
  paymentProviderId?: string;
}

export async function generateReceivables(
  executor: Executor,
  scope: DatasetScope,
  size: DemoDataSize,
  options: GenerateOptions = {},
): Promise<void> {
  const { tenantId, datasetId } = scope;
  const now = options.now ?? new Date();
  const analyze = async (table: string) => {
    if (options.analyze) await analyzeTable(executor, table);
  };
  const nowIso = now.toISOString();
  const today = utcDayOf(nowIso);
  const accountCount = Math.max(1, size.accounts);
  const requestCount = Math.max(1, size.paymentRequests);
  const T = size.transactions;
  const P = size.paymentTransactions;
  const R = size.paymentRequests;
  const run: DemoRun = {
    executor,
    tenantId,
    datasetId,
    nowIso,
    today,
    accountCount,
    requestCount,
    T,
    P,
    R,
    analyze,
    options,
    size,
  };
  await insertAccounts(run);
  await insertPayers(run);
  await numberRequests(run);
  await insertInvoices(run);
  await insertRequests(run);
  await allocateRequests(run);
  await insertPayments(run);
  await allocatePayments(run);
  await settleInvoicesAndRequests(run);
  await chargeLateFees(run);
  await recordProviderEvents(run);
  await offerDiscounts(run);
  await updateBalances(run);
  await attachInvoicePdfs(run);
  await insertBanks(run);
}

/**
 * The lifecycle's demo generator (datasets.jobs.ts): a demo company starts, and resets, with this;
 * its payments name the company's Sandbox configuration `paymentProviderId`.
 */
export async function refillDemoCompany(
  executor: Executor,
  scope: DatasetScope,
  paymentProviderId: string,
): Promise<void> {
  await clearReceivables(executor, scope);
  await generateReceivables(executor, scope, demoCompanySize, { paymentProviderId });
}
