import { sql, type SQL } from 'drizzle-orm';
import type {
  AgedReceivablesRow,
  AgedReceivablesTotals,
  AgingBasis,
  DashboardMonth,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import type { DatasetScope } from '../../platform/scope.js';

/**
 * What the aged receivables count, and which way (docs/decisions/137-aged-receivables.md "Aged receivables"): the
 * transaction's type gives the direction, its amount's magnitude the size. Quotations, pro-forma
 * invoices, orders and despatch notes are not debts.
 */
export const debitTypes = ['Invoice', 'BalanceIncreasingTransaction'] as const;
export const creditTypes = [
  'CreditNote',
  'BalanceReducingTransaction',
  'Receipt',
  'Payment',
] as const;

const list = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/**
 * An item still open today: the predicate of the partial index transactions_open_idx (migration
 * 0031), written exactly as there so the planner uses it.
 */
const openNow = sql`abs(t.allocated_amount) + abs(t.discounted_amount) < abs(t.transaction_amount)`;

/**
 * The items open on `asOf`, one row each: account, currency, age in days and what it owes then
 * (negative for a credit). What an item owes on a day is what it owes now plus the Allocated money
 * (and its discount) of allocations made after that day: they had not settled it yet. Reserved
 * (Provisional) money never settled anything; money reversed by a refund or a lost dispute has
 * already left the allocation, so it owes again. An item raised after the day did not exist then.
 */
function openItems(scope: DatasetScope, asOf: string, basis: AgingBasis, today: string): SQL {
  const { tenantId, datasetId } = scope;
  const agedFrom =
    basis === 'DueDate' ? sql`coalesce(t.due_date, t.transaction_date)` : sql`t.transaction_date`;
  const isDebit = sql`t.transaction_type in (${list(debitTypes)})`;
  const owedNow = sql`abs(t.transaction_amount) - abs(t.allocated_amount) - abs(t.discounted_amount)`;
  /** What an item owed, signed: a debit as it is, a credit negated (no integer × numeric per row). */
  const signed = (amount: SQL) => sql`case when ${isDebit} then ${amount} else -(${amount}) end`;
  const counted = sql`t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId}
    and t.transaction_date <= ${asOf}::date
    and t.transaction_type in (${list([...debitTypes, ...creditTypes])})`;
  const age = sql`${asOf}::date - ${agedFrom}`;
  // Today or later: no allocation can have been made after the day, the items open now are all.
  if (asOf >= today)
    return sql`
    items as (
      select t.account_id, t.currency, ${age} as age, ${signed(owedNow)} as owed
      from transactions t
      where ${counted} and ${openNow}
    ),
    ${agedCte}`;
  // What was settled after the day, added back item by item: the open items are read as for today
  // (one scan of the open-items index, parallel), and each item settled after the day, open or
  // not now, owes again what those allocations took (plus, when closed now, whatever it still
  // owes now: nothing, or a credit). Each found by its id, a lateral with a limit: never a join
  // of every open item with the allocations (a hash of 350,000 rows at a million invoices).
  return sql`
    settled_after as (
      select a.transaction_id, sum(a.allocated_amount + a.discounted_amount) as amount
      from payment_allocations a
      where a.tenant_id = ${tenantId} and a.dataset_id = ${datasetId}
        and a.status = 'Allocated' and a.transaction_id is not null
        and a.created_on >= (${asOf}::date + 1)::timestamp at time zone 'UTC'
      group by a.transaction_id
    ),
    items as (
      select t.account_id, t.currency, ${age} as age, ${signed(owedNow)} as owed
      from transactions t
      where ${counted} and ${openNow}
      union all
      select t.account_id, t.currency, t.age, t.owed
      from settled_after s
      cross join lateral (
        select t.account_id, t.currency, ${age} as age,
          ${signed(sql`s.amount + case when ${openNow} then 0 else ${owedNow} end`)} as owed
        from transactions t
        where t.id = s.transaction_id and ${counted}
        limit 1) t
    ),
    ${agedCte}`;
}

/** Per account and currency, the items' owed amounts summed into their buckets. */
const agedCte = sql`
    aged as (
      select account_id, currency,
        coalesce(sum(owed) filter (where age <= 0), 0) as not_due,
        coalesce(sum(owed) filter (where age between 1 and 30), 0) as days1to30,
        coalesce(sum(owed) filter (where age between 31 and 60), 0) as days31to60,
        coalesce(sum(owed) filter (where age between 61 and 90), 0) as days61to90,
        coalesce(sum(owed) filter (where age > 90), 0) as over90,
        sum(owed) as total
      from items
      group by account_id, currency
    )`;

const bucketColumns = [
  'current',
  'days1to30',
  'days31to60',
  'days61to90',
  'over90',
  'total',
] as const;
const nonZero = sql`(not_due <> 0 or days1to30 <> 0 or days31to60 <> 0 or days61to90 <> 0 or over90 <> 0)`;

const sortColumns: Record<string, SQL> = {
  accountReference: sql`c.account_reference`,
  name: sql`c.name`,
  // The bucket columns of `aged` ('current' is not_due there: CURRENT is an SQL keyword).
  ...Object.fromEntries(
    bucketColumns.map((column) => [
      column,
      sql.raw(column === 'current' ? 'g.not_due' : `g.${column.toLowerCase()}`),
    ]),
  ),
};

export interface AgedReport {
  items: AgedReceivablesRow[];
  totalItems: number;
  totals: AgedReceivablesTotals;
  currencies: string[];
}

export interface AgedReportQuery {
  asOf: string;
  /** The server's today (UTC): a report as of it or later needs no look at later allocations. */
  today: string;
  basis: AgingBasis;
  currency: string;
  /** `-total`, `name`, … (contract agedReceivablesSortFields). */
  sort: string;
  /** null: every row (the CSV). */
  limit: number | null;
  offset: number;
}

/**
 * The page's rows in order (`n`). Sorted by an amount, the page is cut before its accounts are
 * read (ties by account id), so 100,000 accounts cost 100 account reads; by name or reference
 * every account is joined first.
 */
function pageOf(
  scope: DatasetScope,
  column: SQL,
  direction: SQL,
  byAccount: boolean,
  paging: SQL,
): SQL {
  const account = sql`join accounts c on c.tenant_id = ${scope.tenantId} and c.dataset_id = ${scope.datasetId} and c.id = g.account_id`;
  if (byAccount)
    return sql`
      select ${rowJson} as row, row_number() over (order by ${column} ${direction}, c.account_reference, c.id) as n
      from chosen g ${account}
      order by ${column} ${direction}, c.account_reference, c.id
      ${paging}`;
  return sql`
    select ${rowJson} as row, g.n
    from (select *, row_number() over (order by ${column} ${direction}, account_id) as n
      from chosen g order by ${column} ${direction}, account_id ${paging}) g
    ${account}`;
}

const rowJson = sql`json_build_object('accountId', c.id, 'accountReference', c.account_reference, 'name', c.name,
  'current', g.not_due, 'days1to30', g.days1to30, 'days31to60', g.days31to60, 'days61to90', g.days61to90,
  'over90', g.over90, 'total', g.total)`;

/**
 * The aged receivables in one statement: the open items aged and summed per account (materialised
 * once), a page of them with their account, the company totals, and the currencies in debt.
 */
export async function agedReport(
  executor: Executor,
  scope: DatasetScope,
  query: AgedReportQuery,
): Promise<AgedReport> {
  const descending = query.sort.startsWith('-');
  const column = sortColumns[query.sort.replace(/^-/, '')] ?? sql`g.total`;
  const direction = descending ? sql`desc` : sql`asc`;
  const paging = query.limit === null ? sql`` : sql`limit ${query.limit} offset ${query.offset}`;
  const byAccount = /^-?(accountReference|name)$/.test(query.sort);
  const result = (await executor.execute(sql`
    with ${openItems(scope, query.asOf, query.basis, query.today)},
    chosen as materialized (
      select * from aged where currency = ${query.currency} and ${nonZero}
    )
    select
      (select coalesce(json_agg(r.row order by r.n), '[]'::json) from (${pageOf(scope, column, direction, byAccount, paging)}) r) as items,
      (select count(*)::int from chosen) as "totalItems",
      (select json_build_object('current', coalesce(sum(not_due), 0), 'days1to30', coalesce(sum(days1to30), 0),
        'days31to60', coalesce(sum(days31to60), 0), 'days61to90', coalesce(sum(days61to90), 0),
        'over90', coalesce(sum(over90), 0), 'total', coalesce(sum(total), 0)) from chosen) as totals,
      (select coalesce(json_agg(distinct currency order by currency), '[]'::json) from aged where ${nonZero}) as currencies`)) as unknown as {
    rows: {
      items: Record<string, unknown>[];
      totalItems: number;
      totals: Record<string, unknown>;
      currencies: string[];
    }[];
  };
  const row = result.rows[0]!;
  return {
    items: row.items.map((item) => ({
      accountId: String(item.accountId),
      accountReference: String(item.accountReference),
      name: String(item.name),
      ...amounts(item),
    })),
    totalItems: Number(row.totalItems),
    totals: amounts(row.totals),
    currencies: row.currencies,
  };
}

/** The buckets as numbers (json_build_object gives numeric as a JSON number, or text on some drivers). */
function amounts(source: Record<string, unknown>): AgedReceivablesTotals {
  const value = (key: (typeof bucketColumns)[number]) => Number(source[key] ?? 0);
  return {
    current: value('current'),
    days1to30: value('days1to30'),
    days31to60: value('days31to60'),
    days61to90: value('days61to90'),
    over90: value('over90'),
    total: value('total'),
  };
}

/** Debit items past their due day that still owe something today (the dashboard's overdue count). */
export async function overdueInvoiceCount(
  executor: Executor,
  scope: DatasetScope,
  today: string,
  currency: string,
): Promise<number> {
  const result = (await executor.execute(sql`
    select count(*)::int as n from transactions t
    where t.tenant_id = ${scope.tenantId} and t.dataset_id = ${scope.datasetId}
      and t.currency = ${currency} and t.transaction_type in (${list(debitTypes)})
      and coalesce(t.due_date, t.transaction_date) < ${today}::date and ${openNow}`)) as unknown as {
    rows: { n: number }[];
  };
  return Number(result.rows[0]?.n ?? 0);
}

export interface MonthFigures extends DashboardMonth {
  /** Invoices (debit items) raised in the month: the sales DSO counts back over. */
  sales: number;
}

/**
 * Per calendar month from `firstMonth` (YYYY-MM-01) to `today`'s: money collected (Allocated
 * allocations made in the month, by their payment's currency), debit items falling due and raised.
 */
export async function monthFigures(
  executor: Executor,
  scope: DatasetScope,
  firstMonth: string,
  today: string,
  currency: string,
): Promise<MonthFigures[]> {
  const { tenantId, datasetId } = scope;
  const result = (await executor.execute(sql`
    with months as (
      select m::date as month from generate_series(${firstMonth}::date, date_trunc('month', ${today}::date), interval '1 month') m
    ),
    collected as (
      select date_trunc('month', a.created_on at time zone 'UTC')::date as month, sum(a.allocated_amount) as amount
      from payment_allocations a
      join payment_transactions p on p.tenant_id = a.tenant_id and p.dataset_id = a.dataset_id and p.id = a.payment_transaction_id
      where a.tenant_id = ${tenantId} and a.dataset_id = ${datasetId} and a.status = 'Allocated'
        and p.currency = ${currency}
        and a.created_on >= ${firstMonth}::date::timestamp at time zone 'UTC'
        and a.created_on < (${today}::date + 1)::timestamp at time zone 'UTC'
      group by 1
    ),
    -- The debit items raised or falling due in the window, read once for both sums below.
    debits as materialized (
      select coalesce(t.due_date, t.transaction_date) as due_day, t.transaction_date, abs(t.transaction_amount) as amount
      from transactions t
      where t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId} and t.currency = ${currency}
        and t.transaction_type in (${list(debitTypes)})
        and (t.transaction_date >= ${firstMonth}::date or coalesce(t.due_date, t.transaction_date) >= ${firstMonth}::date)
    ),
    due as (
      select date_trunc('month', due_day)::date as month, sum(amount) as amount
      from debits
      where due_day >= ${firstMonth}::date
        and due_day <= date_trunc('month', ${today}::date) + interval '1 month' - interval '1 day'
      group by 1
    ),
    sales as (
      select date_trunc('month', transaction_date)::date as month, sum(amount) as amount
      from debits
      where transaction_date >= ${firstMonth}::date and transaction_date <= ${today}::date
      group by 1
    )
    select to_char(m.month, 'YYYY-MM') as month,
      coalesce(c.amount, 0)::text as collected, coalesce(d.amount, 0)::text as "fallingDue", coalesce(s.amount, 0)::text as sales
    from months m
    left join collected c on c.month = m.month
    left join due d on d.month = m.month
    left join sales s on s.month = m.month
    order by m.month`)) as unknown as {
    rows: { month: string; collected: string; fallingDue: string; sales: string }[];
  };
  return result.rows.map((row) => ({
    month: row.month,
    collected: Number(row.collected),
    fallingDue: Number(row.fallingDue),
    sales: Number(row.sales),
  }));
}

/** Payment attempts that failed in the period (from `firstMonth` to the end of `today`), in `currency`. */
export async function failedPayments(
  executor: Executor,
  scope: DatasetScope,
  firstMonth: string,
  today: string,
  currency: string,
): Promise<{ count: number; amount: number }> {
  const result = (await executor.execute(sql`
    select count(*)::int as n, coalesce(sum(total_amount), 0)::text as amount
    from payment_transactions
    where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId}
      and status in ('Failed', 'Rejected', 'NotAuthorised') and currency = ${currency}
      and status_date_time >= ${firstMonth}::date::timestamp at time zone 'UTC'
      and status_date_time < (${today}::date + 1)::timestamp at time zone 'UTC'`)) as unknown as {
    rows: { n: number; amount: string }[];
  };
  const row = result.rows[0];
  return { count: Number(row?.n ?? 0), amount: Number(row?.amount ?? 0) };
}

/** The company's own currency (datasets.currency): the reports' default. */
export async function companyCurrency(executor: Executor, scope: DatasetScope): Promise<string> {
  const result = (await executor.execute(sql`
    select currency from datasets where tenant_id = ${scope.tenantId} and id = ${scope.datasetId}`)) as unknown as {
    rows: { currency: string }[];
  };
  return result.rows[0]?.currency ?? 'GBP';
}
