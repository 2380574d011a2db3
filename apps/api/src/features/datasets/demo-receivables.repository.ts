import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { DatasetScope } from '../../platform/scope.js';

// The demo generator's SQL (demo-data.ts runs it): accounts, payers, invoices and requests.
// Each statement fills a table from generate_series for one company; the company is written into
// every row and every filter as raw SQL, the statements being INSERT ... SELECT over temporary
// tables that Drizzle does not express.

/** One run of the generator: where it writes, the sizes, and the instant it runs up to. */
export interface DemoRun {
  executor: Executor;
  tenantId: string;
  datasetId: number;
  /** The instant the data runs up to, and its UTC day. */
  nowIso: string;
  today: SQL;
  accountCount: number;
  requestCount: number;
  /** Transactions, payment transactions and payment requests to make. */
  T: number;
  P: number;
  R: number;
  /** ANALYZE the table, when the options ask for it. */
  analyze: (table: string) => Promise<void>;
  options: { paymentProviderId?: string };
  size: { banks: number };
}

const companyWords = sql.raw(
  `array['Acme','Brookfield','Cedar','Dunmore','Elm','Fairway','Granite','Harbour','Ironbridge','Juniper',` +
    `'Kingsway','Lakeside','Meridian','Northgate','Oakridge','Pennine','Quayside','Riverside','Sterling','Thornbury']`,
);
const companySuffixes = sql.raw(
  `array['Ltd','Trading Ltd','Holdings','& Sons','Supplies Ltd','Engineering','Group','Partners']`,
);
export const firstNames = sql.raw(
  `array['Alice','Ben','Chloe','David','Emma','Farah','George','Hannah','Imran','Jess','Kofi','Laura','Mohammed','Nina','Oliver','Priya']`,
);
export const surnames = sql.raw(
  `array['Smith','Jones','Patel','Williams','Brown','Taylor','Khan','Davies','Evans','Wilson','Thomas','Roberts']`,
);
export const cities = sql.raw(
  `array['London','Manchester','Leeds','Bristol','Glasgow','Cardiff','Birmingham','Norwich']`,
);

/** An invoice's amount from its number: £500 to £25,499.90. */
const invoiceAmount = (n: SQL) =>
  sql`round((500 + (${n}::bigint * 7919) % 250000 / 10.0)::numeric, 2)`;
/** An account request's amount from its number: £500 to £30,499.90. */
const accountRequestAmount = (n: SQL) =>
  sql`round((500 + (${n}::bigint * 104729) % 300000 / 10.0)::numeric, 2)`;
/** The instant a request was made: 1 to 400 days before now. */
const requestCreated = (now: string, r: SQL) =>
  sql`(${now}::timestamptz - (1 + ${r} % 400) * interval '1 day' - (${r}::bigint * 37 % 86400) * interval '1 second')`;
export const utcDay = (instant: SQL) => sql`((${instant}) at time zone 'UTC')::date`;
/** The UTC day of an instant given as ISO text. */
export const utcDayOf = (iso: string) => utcDay(sql`${iso}::timestamptz`);

/** ANALYZE a table just filled, so the next statements are planned from its statistics. */
export async function analyzeTable(executor: Executor, table: string) {
  await executor.execute(sql`analyze ${sql.identifier(table)}`);
}

/** Removes a company's receivables (a demo reset starts from nothing); the rest cascades. */
export async function clearReceivables(executor: Executor, scope: DatasetScope): Promise<void> {
  for (const table of ['payment_transactions', 'payment_requests', 'accounts', 'banks']) {
    // Allocations, fees and events go with their payments; payers, transactions and offers with their accounts.
    await executor.execute(
      sql`delete from ${sql.identifier(table)} where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId}`,
    );
  }
}

/** The accounts, each with a billing address and a contact. */
export async function insertAccounts(run: DemoRun) {
  const { executor, tenantId, datasetId, nowIso, accountCount, analyze } = run;
  await executor.execute(sql`
    insert into accounts (tenant_id, dataset_id, id, account_reference, name, short_name, account_type, currency,
      balance, overdue_amount, disputed_amount, credit_limit, email_addresses, contacts, addresses, created_on, updated_on)
    select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(),
      'ACC' || lpad(i::text, 6, '0'),
      (${companyWords})[1 + i % 20] || ' ' || (${companySuffixes})[1 + (i / 20) % 8] || case when i >= 160 then ' ' || (i / 160)::text else '' end,
      upper(left((${companyWords})[1 + i % 20], 4)) || i::text,
      'Customer', 'GBP',
      round(((i::bigint * 7919) % 500000) / 100.0, 2), round(((i::bigint * 104729) % 120000) / 100.0, 2), case when i % 17 = 0 then 250 else 0 end,
      (1 + i % 10) * 5000,
      jsonb_build_array(jsonb_build_object('emailAddress', 'accounts' || i || '@' || lower((${companyWords})[1 + i % 20]) || '.example', 'type', 'Accounts', 'isDefault', true)),
      jsonb_build_array(jsonb_build_object('firstNames', (${firstNames})[1 + i % 16], 'surname', (${surnames})[1 + i % 12])),
      jsonb_build_array(jsonb_build_object('type', 'Billing', 'address1', (1 + i % 200) || ' High Street', 'city', (${cities})[1 + i % 8], 'postCode', 'AB' || (1 + i % 90) || ' ' || (1 + i % 9) || 'CD', 'country', 'United Kingdom')),
      ${nowIso}::timestamptz - (700 + i % 300) * interval '1 day', ${nowIso}::timestamptz
    from generate_series(1, ${accountCount}) as i`);

  await analyze('accounts');
}

/** Numbers the accounts (a temporary table) and gives every other one a payer. */
export async function insertPayers(run: DemoRun) {
  const { executor, tenantId, datasetId, nowIso } = run;
  // Numbered accounts and requests make the joins below a plain equality on the row number.
  await executor.execute(sql`drop table if exists demo_accounts, demo_requests, demo_payments`);
  await executor.execute(sql`
    create temporary table demo_accounts on commit drop as
    select row_number() over (order by account_reference) as n, id, name from accounts
    where tenant_id = ${tenantId} and dataset_id = ${datasetId}`);

  await executor.execute(sql`
    insert into payers (tenant_id, dataset_id, id, account_id, created_on, company_name, first_names, surname, email_address, address1, city, post_code, country)
    select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(), a.id, ${nowIso}::timestamptz - (400 + a.n % 300) * interval '1 day',
      a.name, (${firstNames})[1 + a.n % 16], (${surnames})[1 + a.n % 12],
      lower((${firstNames})[1 + a.n % 16]) || '.' || lower((${surnames})[1 + a.n % 12]) || a.n || '@example.com',
      (1 + a.n % 200) || ' Station Road', (${cities})[1 + a.n % 8], 'EF' || (1 + a.n % 90) || ' 1GH', 'United Kingdom'
    from demo_accounts a where a.n % 2 = 1`);
}

/** The requests to be, numbered, with their account and how many attempts they get. */
export async function numberRequests(run: DemoRun) {
  const { executor, nowIso, accountCount, requestCount, T, P, R } = run;
  // Requests: r % 4 = 0 asks an account for money, the others one or two invoices (t = r, r + R).
  // Attempts: payment p belongs to request 1 + (p - 1) % R, as its attempt (p - 1) / R.
  await executor.execute(sql`
    create temporary table demo_requests on commit drop as
    select r as n, gen_random_uuid() as id, a.id as account_id, a.name as account_name, a.n as account_n,
      case when r % 4 <> 0 and r <= ${T} then 'Transaction' else 'Account' end as request_type,
      case when r % 3 = 2 then 'Reserve' else 'Immediate' end as capture_type,
      case when r <= ${P} then (${P} - r) / ${requestCount} + 1 else 0 end as attempts,
      ${requestCreated(nowIso, sql`r`)} as created_on
    from generate_series(1, ${R}) as r
    join demo_accounts a on a.n = 1 + r % ${accountCount}`);
}

/** The invoices and credit notes. */
export async function insertInvoices(run: DemoRun) {
  const { executor, tenantId, datasetId, today, accountCount, requestCount, T, R, analyze } = run;
  // Invoices a request pays are issued up to 44 days before it (so some are overdue when paid);
  // the others are spread over the last two years. Amounts owed follow from the allocations below.
  await executor.execute(sql`
    insert into transactions (tenant_id, dataset_id, id, account_id, transaction_reference, transaction_type, transaction_date, due_date,
      currency, transaction_amount, discounted_amount, allocated_amount, paid_status, description, payment_terms_description, posting_application, custom_host_id, created_on, updated_on)
    select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(), coalesce(r.account_id, a.id),
      case when r.n is null and i % 10 = 0 then 'CRN' else 'INV' end || lpad(i::text, 7, '0'),
      case when r.n is null and i % 10 = 0 then 'CreditNote' else 'Invoice' end,
      d.day, d.day + 30,
      'GBP', ${invoiceAmount(sql`i`)}, 0, 0, 'Unpaid',
      'Goods and/or services.', '30 days from transaction date', 'Sales Ledger', 'C' || i,
      d.day::timestamp at time zone 'UTC', d.day::timestamp at time zone 'UTC'
    from generate_series(1, ${T}) as i
    left join demo_requests r on r.request_type = 'Transaction' and i <= 2 * ${R} and r.n = 1 + (i - 1) % ${requestCount}
    join demo_accounts a on a.n = 1 + (1 + (i - 1) % ${requestCount}) % ${accountCount}
    cross join lateral (select case when r.n is not null
      then ${utcDay(sql`r.created_on`)} - (r.n * 7 % 45)::int - 3 * ((i - 1) / ${requestCount})::int
      else ${today} - (i % 700)::int - 1 end as day) d`);
  await analyze('transactions');
}

/** The payment requests, asking for their invoices or an account amount. */
export async function insertRequests(run: DemoRun) {
  const { executor, tenantId, datasetId, R, analyze } = run;
  await executor.execute(sql`
    insert into payment_requests (tenant_id, dataset_id, id, request_type, request_status, capture_type, usage_type, customer_name, customer_reference,
      currency, amount_to_pay, created_on, valid_from, valid_until, payment_required_by, description, payment_terms, account_id, billing_contact)
    select ${tenantId}::uuid, ${datasetId}, r.id, r.request_type, 'Open', r.capture_type,
      case when r.attempts > 3 then 'Multiple' else 'Single' end,
      r.account_name, 'ACC' || lpad(r.account_n::text, 6, '0'),
      'GBP', coalesce(owed.amount, ${accountRequestAmount(sql`r.n`)}),
      r.created_on, r.created_on, r.created_on + interval '30 days',
      coalesce(owed.due, ${utcDay(sql`r.created_on`)} + 30),
      'Goods and/or services.', '30 days from transaction date', r.account_id,
      jsonb_build_object('companyName', r.account_name, 'firstNames', (${firstNames})[1 + r.n % 16], 'surname', (${surnames})[1 + r.n % 12],
        'emailAddress', 'billing' || r.n || '@example.com', 'address', jsonb_build_object('address1', (1 + r.n % 200) || ' Mill Lane', 'city', (${cities})[1 + r.n % 8], 'postCode', 'JK' || (1 + r.n % 90) || ' 2LM', 'country', 'United Kingdom'))
    from demo_requests r
    left join lateral (
      select sum(t.transaction_amount) as amount, min(t.due_date) as due
      from transactions t
      where r.request_type = 'Transaction' and t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId}
        and t.transaction_reference in ('INV' || lpad(r.n::text, 7, '0'), 'INV' || lpad((r.n + ${R})::text, 7, '0'))) owed on true`);
  await analyze('payment_requests');
}

/** A Transaction request's invoices. */
export async function allocateRequests(run: DemoRun) {
  const { executor, tenantId, datasetId, R, analyze } = run;
  await executor.execute(sql`
    insert into payment_request_allocations (tenant_id, dataset_id, payment_request_id, transaction_id, amount, required, can_edit_amount)
    select t.tenant_id, t.dataset_id, r.id, t.id, t.transaction_amount, true, false
    from demo_requests r
    join transactions t on t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId}
      and t.transaction_reference in ('INV' || lpad(r.n::text, 7, '0'), 'INV' || lpad((r.n + ${R})::text, 7, '0'))
    where r.request_type = 'Transaction'`);
  await analyze('payment_request_allocations');
}
