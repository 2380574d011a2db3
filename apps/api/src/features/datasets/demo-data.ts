import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

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
  paymentRequests: 60,
  paymentTransactions: 250,
  banks: 3,
};

export interface DemoScope {
  tenantId: string;
  datasetId: number;
}

// Realistic-looking receivables made by the database itself (INSERT ... SELECT generate_series), so
// the same generator fills a demo company in milliseconds and a benchmark's million rows in
// seconds. Values derive from the row number, so a given size always gives the same data, spread
// over the last two years up to `now`.

const companyWords = sql.raw(
  `array['Acme','Brookfield','Cedar','Dunmore','Elm','Fairway','Granite','Harbour','Ironbridge','Juniper',` +
    `'Kingsway','Lakeside','Meridian','Northgate','Oakridge','Pennine','Quayside','Riverside','Sterling','Thornbury']`,
);
const companySuffixes = sql.raw(`array['Ltd','Trading Ltd','Holdings','& Sons','Supplies Ltd','Engineering','Group','Partners']`);
const firstNames = sql.raw(`array['Alice','Ben','Chloe','David','Emma','Farah','George','Hannah','Imran','Jess','Kofi','Laura','Mohammed','Nina','Oliver','Priya']`);
const surnames = sql.raw(`array['Smith','Jones','Patel','Williams','Brown','Taylor','Khan','Davies','Evans','Wilson','Thomas','Roberts']`);
const cities = sql.raw(`array['London','Manchester','Leeds','Bristol','Glasgow','Cardiff','Birmingham','Norwich']`);

/** Removes a company's receivables (a demo reset starts from nothing); the rest cascades. */
export async function clearReceivables(executor: Executor, scope: DemoScope): Promise<void> {
  for (const table of ['payment_transactions', 'payment_requests', 'accounts', 'banks']) {
    // Allocations, fees and events go with their payments; payers, transactions and offers with their accounts.
    await executor.execute(sql`delete from ${sql.identifier(table)} where tenant_id = ${scope.tenantId} and dataset_id = ${scope.datasetId}`);
  }
}

export interface GenerateOptions {
  now?: Date;
  /**
   * ANALYZE each parent table once filled (needs the owner's connection). For large sizes: the
   * foreign-key checks of the next insert are planned from the table's statistics, and a table
   * the planner believes empty is checked by sequential scans, quadratically.
   */
  analyze?: boolean;
}

export async function generateReceivables(executor: Executor, scope: DemoScope, size: DemoDataSize, options: GenerateOptions = {}): Promise<void> {
  const { tenantId, datasetId } = scope;
  const now = options.now ?? new Date();
  const analyze = async (table: string) => {
    if (options.analyze) await executor.execute(sql`analyze ${sql.identifier(table)}`);
  };
  const nowIso = now.toISOString();
  const accountCount = Math.max(1, size.accounts);

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
      ${nowIso}::timestamptz - (i % 700) * interval '1 day', ${nowIso}::timestamptz
    from generate_series(1, ${accountCount}) as i`);

  await analyze('accounts');
  // Numbered accounts make the joins below a plain equality on the row number.
  await executor.execute(sql`drop table if exists demo_accounts, demo_requests`);
  await executor.execute(sql`
    create temporary table demo_accounts on commit drop as
    select row_number() over (order by account_reference) as n, id, name from accounts
    where tenant_id = ${tenantId} and dataset_id = ${datasetId}`);

  await executor.execute(sql`
    insert into payers (tenant_id, dataset_id, id, account_id, created_on, company_name, first_names, surname, email_address, address1, city, post_code, country)
    select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(), a.id, ${nowIso}::timestamptz - (a.n % 300) * interval '1 day',
      a.name, (${firstNames})[1 + a.n % 16], (${surnames})[1 + a.n % 12],
      lower((${firstNames})[1 + a.n % 16]) || '.' || lower((${surnames})[1 + a.n % 12]) || a.n || '@example.com',
      (1 + a.n % 200) || ' Station Road', (${cities})[1 + a.n % 8], 'EF' || (1 + a.n % 90) || ' 1GH', 'United Kingdom'
    from demo_accounts a where a.n % 2 = 1`);

  await executor.execute(sql`
    insert into transactions (tenant_id, dataset_id, id, account_id, transaction_reference, transaction_type, transaction_date, due_date,
      currency, transaction_amount, discounted_amount, allocated_amount, paid_status, description, payment_terms_description, posting_application, custom_host_id)
    select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(), a.id,
      case when i % 10 = 0 then 'CRN' else 'INV' end || lpad(i::text, 7, '0'),
      case when i % 10 = 0 then 'CreditNote' else 'Invoice' end,
      ${nowIso}::timestamptz - (i % 700) * interval '1 day' - (i % 86400) * interval '1 second',
      ${nowIso}::timestamptz - (i % 700) * interval '1 day' + interval '30 days',
      'GBP', round((50 + (i::bigint * 7919) % 250000 / 10.0)::numeric, 2), 0,
      case i % 3 when 0 then round((50 + (i::bigint * 7919) % 250000 / 10.0)::numeric, 2) when 1 then 0 else round((25 + (i::bigint * 7919) % 250000 / 20.0)::numeric, 2) end,
      case i % 3 when 0 then 'FullyPaid' when 1 then 'Unpaid' else 'PartPaid' end,
      'Goods and/or services.', '30 days from transaction date', 'Sales Ledger', 'C' || i
    from generate_series(1, ${size.transactions}) as i
    join demo_accounts a on a.n = 1 + i % ${accountCount}`);

  await executor.execute(sql`
    insert into payment_requests (tenant_id, dataset_id, id, request_type, request_status, capture_type, usage_type, customer_name, customer_reference,
      currency, amount_to_pay, created_on, valid_from, valid_until, payment_required_by, description, payment_terms, account_id, billing_contact)
    select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(),
      case when i % 4 = 0 then 'Account' else 'Transaction' end,
      (array['Open','Completed','PartCompleted','Cancelled','Expired','Pending'])[1 + i % 6],
      case when i % 5 = 0 then 'Reserve' else 'Immediate' end, 'Single',
      a.name, 'ACC' || lpad(a.n::text, 6, '0'),
      'GBP', round((20 + (i::bigint * 104729) % 300000 / 10.0)::numeric, 2),
      ${nowIso}::timestamptz - (i % 400) * interval '1 day' - (i % 3600) * interval '1 second',
      ${nowIso}::timestamptz - (i % 400) * interval '1 day', ${nowIso}::timestamptz - (i % 400) * interval '1 day' + interval '30 days',
      ${nowIso}::timestamptz - (i % 400) * interval '1 day' + interval '30 days',
      'Goods and/or services.', '30 days from transaction date', a.id,
      jsonb_build_object('companyName', a.name, 'firstNames', (${firstNames})[1 + i % 16], 'surname', (${surnames})[1 + i % 12],
        'emailAddress', 'billing' || i || '@example.com', 'address', jsonb_build_object('address1', (1 + i % 200) || ' Mill Lane', 'city', (${cities})[1 + i % 8], 'postCode', 'JK' || (1 + i % 90) || ' 2LM', 'country', 'United Kingdom'))
    from generate_series(1, ${size.paymentRequests}) as i
    join demo_accounts a on a.n = 1 + i % ${accountCount}`);

  await analyze('payment_requests');
  await analyze('transactions');
  await executor.execute(sql`
    create temporary table demo_requests on commit drop as
    select row_number() over (order by created_on, id) as n, id, account_id from payment_requests
    where tenant_id = ${tenantId} and dataset_id = ${datasetId}`);
  const requestCount = Math.max(1, size.paymentRequests);

  // Mostly paid; some failed, rejected, pending and refunded, as a real month looks.
  await executor.execute(sql`
    insert into payment_transactions (tenant_id, dataset_id, id, type, status, allocated_status, ledgerline_reference, created_on, status_date_time,
      total_amount, currency, fee, fee_currency, payment_request_id, customer_name, company_name, customer_details, account_id,
      payment_provider_name, payment_provider_reference, payment_method_type)
    select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(),
      case when i % 40 = 0 then 'Refund' else 'Payment' end,
      case when i % 40 = 0 then 'Refunded' else (array['Paid','Paid','Paid','Paid','Paid','Paid','Failed','Rejected','NotAuthorised','Pending','Processing','Paid'])[1 + i % 12] end,
      (array['AutoAllocated','AutoAllocated','ManuallyAllocated','WaitingToBeAllocated','Error','Unallocated','NotApplicable'])[1 + i % 7],
      'LL' || lpad(i::text, 9, '0'),
      ${nowIso}::timestamptz - (i % 730) * interval '1 day' - (i * 37 % 86400) * interval '1 second' - interval '5 minutes',
      ${nowIso}::timestamptz - (i % 730) * interval '1 day' - (i * 37 % 86400) * interval '1 second',
      round((20 + (i::bigint * 104729) % 300000 / 10.0)::numeric, 2), 'GBP', round(((i::bigint * 7919) % 900) / 100.0, 2), 'GBP',
      r.id,
      (${firstNames})[1 + i % 16] || ' ' || (${surnames})[1 + (i / 16) % 12] || case when i >= 192 then ' ' || (i / 192)::text else '' end,
      a.name,
      jsonb_build_object('companyName', a.name, 'firstNames', (${firstNames})[1 + i % 16], 'surname', (${surnames})[1 + (i / 16) % 12],
        'emailAddress', 'payer' || i || '@example.com', 'city', (${cities})[1 + i % 8], 'country', 'United Kingdom'),
      a.id,
      (array['Stripe','GoCardless','Opayo'])[1 + i % 3], 'pi_' || md5(i::text),
      (array['Card','Card','BankTransfer','BankDebit'])[1 + i % 4]
    from generate_series(1, ${size.paymentTransactions}) as i
    ${
      size.paymentRequests > 0
        ? // A payment pays one of the requests, so it belongs to that request's account.
          sql`join demo_requests r on r.n = 1 + i % ${requestCount} join demo_accounts a on a.id = r.account_id`
        : sql`cross join (select null::uuid as id) r join demo_accounts a on a.n = 1 + i % ${accountCount}`
    }`);

  // Pending payments wait on Ledgerline's sandbox provider, so capture and cancel work in a demo.
  await executor.execute(sql`
    update payment_transactions set payment_provider_name = 'Sandbox'
    where tenant_id = ${tenantId} and dataset_id = ${datasetId} and status = 'Pending'`);
  await analyze('payment_transactions');
  // Allocated payments were applied to their account (spec 2 §3 Payment allocation).
  await executor.execute(sql`
    insert into payment_allocations (tenant_id, dataset_id, id, payment_transaction_id, created_on, type, status, entity_type, account_id, allocated_amount)
    select tenant_id, dataset_id, gen_random_uuid(), id, status_date_time, 'Payment', 'Allocated', 'Account', account_id, total_amount
    from payment_transactions
    where tenant_id = ${tenantId} and dataset_id = ${datasetId} and allocated_status in ('AutoAllocated', 'ManuallyAllocated')`);

  await executor.execute(sql`
    insert into banks (tenant_id, dataset_id, id, account_name, currency, description, account_number, sort_code, iban, bank_name, source)
    select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(),
      (array['Current Account','Collections Account','Euro Account','Dollar Account'])[1 + i % 4],
      (array['GBP','GBP','EUR','USD'])[1 + i % 4], 'Company account ' || i,
      lpad(((i::bigint * 7919) % 100000000)::text, 8, '0'), '20-' || lpad((i % 100)::text, 2, '0') || '-' || lpad((i * 7 % 100)::text, 2, '0'),
      'GB' || lpad((i % 97)::text, 2, '0') || 'BARC2000' || lpad(((i::bigint * 7919) % 100000000)::text, 8, '0'),
      (array['Barclays','HSBC','Lloyds','NatWest'])[1 + i % 4], 'Sage 200'
    from generate_series(1, ${size.banks}) as i`);
}

/** The lifecycle's demo generator (datasets.jobs.ts): a demo company starts, and resets, with this. */
export async function refillDemoCompany(executor: Executor, scope: DemoScope): Promise<void> {
  await clearReceivables(executor, scope);
  await generateReceivables(executor, scope, demoCompanySize);
}
