import { sql, type SQL } from 'drizzle-orm';
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
  paymentRequests: 120,
  paymentTransactions: 300,
  banks: 4,
};

export interface DemoScope {
  tenantId: string;
  datasetId: number;
}

// Realistic-looking receivables made by the database itself (INSERT ... SELECT generate_series), so
// the same generator fills a demo company in milliseconds and a benchmark's million rows in
// seconds. Values derive from the row number, so a given size always gives the same data, spread
// over the last two years up to `now`.
//
// Issue 10 item 15: the data follows the product's own rules and runs forward in time. An invoice is
// issued, then a request asks for it (a Transaction request allocates one or two invoices), then
// the payer's attempts arrive after the request (failures first; a Single request stops at its
// outcome, a Multiple one is paid in instalments), then each captured payment is allocated to the
// request's invoices in due-date order, each up to what it still owes (the rule a capture uses,
// pay/lifecycle.ts confirm), an overdue invoice paid late carries the statutory
// fixed sum as a late-payment fee line, and every payment has the provider event that said so.
// Invoices' allocated amount and paid status and requests' status are then computed from those
// payments and allocations. Pending payments (Reserve requests) are authorised, not yet allocated.
// Every payment goes through Ledgerline's Sandbox provider (a demo company's own configuration).

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
  /**
   * The Sandbox configuration the payments name (a demo company's own, issue 21); none for data
   * made outside a company's lifecycle (tests, benches).
   */
  paymentProviderId?: string;
}

/** An invoice's amount from its number: £500 to £25,499.90. */
const invoiceAmount = (n: SQL) => sql`round((500 + (${n}::bigint * 7919) % 250000 / 10.0)::numeric, 2)`;
/** An account request's amount from its number: £500 to £30,499.90. */
const accountRequestAmount = (n: SQL) => sql`round((500 + (${n}::bigint * 104729) % 300000 / 10.0)::numeric, 2)`;
/** The instant a request was made: 1 to 400 days before now. */
const requestCreated = (now: string, r: SQL) => sql`(${now}::timestamptz - (1 + ${r} % 400) * interval '1 day' - (${r}::bigint * 37 % 86400) * interval '1 second')`;
const utcDay = (instant: SQL) => sql`((${instant}) at time zone 'UTC')::date`;
/** The payment attempts after the first of a Multiple request (statuses, in turn). */
const instalmentStatuses = sql.raw(`array['Paid','Paid','Failed','Paid','NotAuthorised','Paid','Pending','Rejected','Paid','Processing','Paid','Refunded']`);
const failures = sql.raw(`array['Failed','NotAuthorised','Rejected']`);

export async function generateReceivables(executor: Executor, scope: DemoScope, size: DemoDataSize, options: GenerateOptions = {}): Promise<void> {
  const { tenantId, datasetId } = scope;
  const now = options.now ?? new Date();
  const analyze = async (table: string) => {
    if (options.analyze) await executor.execute(sql`analyze ${sql.identifier(table)}`);
  };
  const nowIso = now.toISOString();
  const today = utcDay(sql`${nowIso}::timestamptz`);
  const accountCount = Math.max(1, size.accounts);
  const requestCount = Math.max(1, size.paymentRequests);
  const T = size.transactions;
  const P = size.paymentTransactions;
  const R = size.paymentRequests;

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

  await executor.execute(sql`
    insert into payment_request_allocations (tenant_id, dataset_id, payment_request_id, transaction_id, amount, required, can_edit_amount)
    select t.tenant_id, t.dataset_id, r.id, t.id, t.transaction_amount, true, false
    from demo_requests r
    join transactions t on t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId}
      and t.transaction_reference in ('INV' || lpad(r.n::text, 7, '0'), 'INV' || lpad((r.n + ${R})::text, 7, '0'))
    where r.request_type = 'Transaction'`);
  await analyze('payment_request_allocations');


  // The attempts, evenly spread between the request and now: a Single request fails first and ends
  // with its outcome; a Multiple one is paid in instalments. Pending only under Reserve capture.
  await executor.execute(sql`
    create temporary table demo_payments on commit drop as
    select p, gen_random_uuid() as id, r.id as request_id, r.n as request_n, r.request_type, r.account_id, r.account_name,
      r.created_on + ((p - 1) / ${requestCount} + 1) * ((${nowIso}::timestamptz - r.created_on) / (r.attempts + 1)) as created_on,
      case
        when r.attempts > 3 then case (${instalmentStatuses})[1 + ((p - 1) / ${requestCount} + r.n) % 12]
          when 'Pending' then case when r.capture_type = 'Reserve' then 'Pending' else 'Processing' end else (${instalmentStatuses})[1 + ((p - 1) / ${requestCount} + r.n) % 12] end
        when (p - 1) / ${requestCount} < r.attempts - 1 then (${failures})[1 + p % 3]
        else case r.n % 6 when 5 then case when r.capture_type = 'Reserve' then 'Pending' else 'Paid' end when 4 then 'Processing' when 3 then 'Failed' else 'Paid' end
      end as status,
      case when r.attempts > 3 then greatest(round(q.amount_to_pay / r.attempts, 2), 0.01) else q.amount_to_pay end as total_amount
    from generate_series(1, ${R > 0 ? P : 0}) as p
    join demo_requests r on r.n = 1 + (p - 1) % ${requestCount}
    join payment_requests q on q.tenant_id = ${tenantId} and q.dataset_id = ${datasetId} and q.id = r.id`);

  await executor.execute(sql`
    insert into payment_transactions (tenant_id, dataset_id, id, type, status, allocated_status, ledgerline_reference, created_on, status_date_time,
      total_amount, currency, fee, fee_currency, payment_request_id, customer_name, company_name, customer_details, account_id,
      payment_provider_id, payment_provider_name, payment_provider_reference, payment_method_type)
    select ${tenantId}::uuid, ${datasetId}, d.id, 'Payment', d.status,
      case
        when d.status in ('Failed', 'NotAuthorised', 'Rejected', 'Refunded') then 'NotApplicable'
        when d.status in ('Pending', 'Processing') then 'WaitingToBeAllocated'
        when d.request_type = 'Account' then case when p % 3 = 0 then 'WaitingToBeAllocated' else 'ManuallyAllocated' end
        when p % 17 = 0 then 'Error'
        when p % 5 = 0 then 'ManuallyAllocated'
        else 'AutoAllocated'
      end,
      'LL' || lpad(p::text, 9, '0'),
      d.created_on,
      d.created_on + case when d.status = 'Pending' then interval '0 second' else interval '2 minutes' end,
      d.total_amount, 'GBP',
      case when d.status in ('Paid', 'Refunded') then round(d.total_amount * 0.014 + 0.20, 2) end,
      case when d.status in ('Paid', 'Refunded') then 'GBP' end,
      d.request_id,
      (${firstNames})[1 + p % 16] || ' ' || (${surnames})[1 + (p / 16) % 12] || case when p >= 192 then ' ' || (p / 192)::text else '' end,
      d.account_name,
      jsonb_build_object('companyName', d.account_name, 'firstNames', (${firstNames})[1 + p % 16], 'surname', (${surnames})[1 + (p / 16) % 12],
        'emailAddress', 'payer' || p || '@example.com', 'city', (${cities})[1 + p % 8], 'country', 'United Kingdom'),
      d.account_id,
      ${options.paymentProviderId ?? null}::uuid, 'Sandbox', 'sbx_pay_' || left(md5(p::text), 24),
      (array['Card','Card','BankTransfer','BankDebit'])[1 + p % 4]
    from demo_payments d`);
  await analyze('payment_transactions');

  // Captured payments of invoice requests, in the order they arrived, fill the request's invoices in
  // due-date order, each up to its amount (what has been paid before is the running total).
  await executor.execute(sql`
    insert into payment_allocations (tenant_id, dataset_id, id, payment_transaction_id, created_on, type, status, entity_type, transaction_id, account_id, allocated_amount)
    with paid as (
      select pt.id, pt.payment_request_id, pt.status_date_time, pt.account_id, pt.total_amount,
        sum(pt.total_amount) over (partition by pt.payment_request_id order by pt.created_on, pt.id) as paid_after
      from payment_transactions pt
      where pt.tenant_id = ${tenantId} and pt.dataset_id = ${datasetId} and pt.allocated_status in ('AutoAllocated', 'ManuallyAllocated')
    ), invoices as (
      select x.payment_request_id, t.id, t.account_id,
        sum(t.transaction_amount) over (partition by x.payment_request_id order by t.due_date, t.id) as owed_to,
        t.transaction_amount
      from payment_request_allocations x
      join transactions t on t.tenant_id = x.tenant_id and t.dataset_id = x.dataset_id and t.id = x.transaction_id
      where x.tenant_id = ${tenantId} and x.dataset_id = ${datasetId}
    )
    select ${tenantId}::uuid, ${datasetId}::int, gen_random_uuid(), paid.id, paid.status_date_time, 'Payment', 'Allocated', 'Transaction', i.id, i.account_id,
      least(paid.paid_after, i.owed_to) - greatest(paid.paid_after - paid.total_amount, i.owed_to - i.transaction_amount)
    from paid join invoices i on i.payment_request_id = paid.payment_request_id
    where least(paid.paid_after, i.owed_to) > greatest(paid.paid_after - paid.total_amount, i.owed_to - i.transaction_amount)
    union all
    select ${tenantId}::uuid, ${datasetId}::int, gen_random_uuid(), paid.id, paid.status_date_time, 'Payment', 'Allocated', 'Account', null::uuid, paid.account_id, paid.total_amount
    from paid join payment_requests q on q.tenant_id = ${tenantId} and q.dataset_id = ${datasetId} and q.id = paid.payment_request_id
    where q.request_type = 'Account'`);
  await analyze('payment_allocations');
  // A captured payment the invoices had no room left for stays unallocated.
  await executor.execute(sql`
    update payment_transactions pt set allocated_status = 'Unallocated'
    where pt.tenant_id = ${tenantId} and pt.dataset_id = ${datasetId} and pt.allocated_status in ('AutoAllocated', 'ManuallyAllocated')
      and not exists (select 1 from payment_allocations a where a.tenant_id = pt.tenant_id and a.dataset_id = pt.dataset_id and a.payment_transaction_id = pt.id)`);

  // The invoices' allocated amount and paid status, from their allocations.
  await executor.execute(sql`
    update transactions t set allocated_amount = s.allocated,
      paid_status = case when s.allocated >= t.transaction_amount then 'FullyPaid' when s.allocated > 0 then 'PartPaid' else 'Unpaid' end
    from (select transaction_id, sum(allocated_amount) as allocated from payment_allocations
          where tenant_id = ${tenantId} and dataset_id = ${datasetId} and entity_type = 'Transaction' and status <> 'Cancelled'
          group by transaction_id) s
    where t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId} and t.id = s.transaction_id`);

  // The requests' status, from their payments: paid in full, in part, authorised, or still open
  // (some open ones later expired or were cancelled). One left Open or PartCompleted past its
  // valid-until is Expired, as the expiry sweep (payment-requests.expiry.ts) would have left it:
  // a new company must not hand the sweep a burst of expiries minutes after it was made.
  await executor.execute(sql`
    update payment_requests q set request_status = case
        when s.paid >= q.amount_to_pay then 'Completed'
        when s.paid > 0 and q.valid_until < ${nowIso}::timestamptz then 'Expired'
        when s.paid > 0 then 'PartCompleted'
        when s.pending then 'Pending'
        when r.n % 8 = 6 then 'Expired'
        when r.n % 8 = 7 then 'Cancelled'
        when q.valid_until < ${nowIso}::timestamptz then 'Expired'
        else 'Open' end
    from demo_requests r
    left join lateral (
      select coalesce(sum(pt.total_amount) filter (where pt.status = 'Paid'), 0) as paid, bool_or(pt.status = 'Pending') as pending
      from payment_transactions pt
      where pt.tenant_id = ${tenantId} and pt.dataset_id = ${datasetId} and pt.payment_request_id = r.id) s on true
    where q.tenant_id = ${tenantId} and q.dataset_id = ${datasetId} and q.id = r.id`);

  // spec 3 late payments: an invoice paid after its due date carries the statutory fixed sum, once
  // (reference/uk-late-payment.md: £40 under £1,000, £70 under £10,000, £100 from £10,000).
  await executor.execute(sql`
    insert into payment_fee_transactions (tenant_id, dataset_id, id, created_on, transaction_id, payment_transaction_id, fee_details)
    select late.tenant_id, late.dataset_id, gen_random_uuid(), late.created_on, late.transaction_id, late.payment_transaction_id,
      jsonb_build_array(jsonb_build_object('type', 'LatePaymentFixedSum', 'currency', 'GBP', 'amount',
        case when late.transaction_amount < 1000 then 40 when late.transaction_amount < 10000 then 70 else 100 end))
    from (
      select a.tenant_id, a.dataset_id, a.created_on, a.transaction_id, a.payment_transaction_id, t.transaction_amount,
        row_number() over (partition by a.transaction_id order by a.created_on, a.id) as nth
      from payment_allocations a
      join transactions t on t.tenant_id = a.tenant_id and t.dataset_id = a.dataset_id and t.id = a.transaction_id
      where a.tenant_id = ${tenantId} and a.dataset_id = ${datasetId} and a.entity_type = 'Transaction'
        and ${utcDay(sql`a.created_on`)} > t.due_date) late
    -- charged once per invoice, with the first payment made after its due date
    where late.nth = 1`);

  // The payer paid the fee with the invoice.
  await executor.execute(sql`
    update payment_transactions pt set total_amount = pt.total_amount + f.fees
    from (select payment_transaction_id, sum((fee_details->0->>'amount')::numeric) as fees from payment_fee_transactions
          where tenant_id = ${tenantId} and dataset_id = ${datasetId} group by payment_transaction_id) f
    where pt.tenant_id = ${tenantId} and pt.dataset_id = ${datasetId} and pt.id = f.payment_transaction_id`);

  // What the Sandbox provider said about each payment.
  await executor.execute(sql`
    insert into provider_events (tenant_id, dataset_id, id, payment_transaction_id, created_on, provider_name, event_type, record_type, record_id, status, payload_file_name, payload)
    select pt.tenant_id, pt.dataset_id, gen_random_uuid(), pt.id, pt.status_date_time, 'Sandbox', e.event_type, 'payment', pt.payment_provider_reference, e.status,
      pt.payment_provider_reference || '.json',
      json_build_object('id', pt.payment_provider_reference, 'object', 'payment', 'status', e.status, 'amount', pt.total_amount, 'currency', pt.currency,
        'method', pt.payment_method_type, 'created', pt.status_date_time)::text
    from payment_transactions pt
    cross join lateral (select
      case pt.status when 'Paid' then 'payment.captured' when 'Pending' then 'payment.authorised' when 'Processing' then 'payment.processing'
        when 'Refunded' then 'payment.refunded' else 'payment.failed' end as event_type,
      case pt.status when 'Paid' then 'succeeded' when 'Pending' then 'requires_capture' when 'Processing' then 'processing'
        when 'Refunded' then 'refunded' else 'failed' end as status) e
    where pt.tenant_id = ${tenantId} and pt.dataset_id = ${datasetId}`);

  // Early-payment offers: one open on some invoices still owed, valid until the due date; a few
  // cancelled ones where the invoice was paid in full anyway.
  await executor.execute(sql`
    insert into settlement_offers (tenant_id, dataset_id, id, transaction_id, type, status, description, valid_from, valid_until, currency, amount, percentage_discount, priority, created_on)
    select t.tenant_id, t.dataset_id, gen_random_uuid(), t.id, 'PercentageDiscount',
      case when t.paid_status = 'FullyPaid' then 'Cancelled' else 'Open' end,
      '2% for payment within 10 days', t.transaction_date, t.transaction_date + 10, t.currency, null, 2, 0, t.created_on
    from transactions t
    where t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId} and t.transaction_type = 'Invoice'
      and right(t.transaction_reference, 1) = '7' and t.due_date >= t.transaction_date + 10`);

  // Issue 22 item 9: each account's balance and overdue amount are what its transactions still owe
  // (credit notes owe the other way), overdue being what is owed past its due date, so the account,
  // its invoices' paid statuses and their Overdue badges tell one story.
  await executor.execute(sql`
    update accounts a set balance = coalesce(s.balance, 0), overdue_amount = coalesce(s.overdue, 0)
    from (select a2.id,
            sum(case when t.transaction_type = 'CreditNote' then -1 else 1 end
                * (t.transaction_amount - t.allocated_amount - t.discounted_amount)) as balance,
            sum(t.transaction_amount - t.allocated_amount - t.discounted_amount)
              filter (where t.transaction_type <> 'CreditNote' and t.due_date < ${today}) as overdue
          from accounts a2
          left join transactions t on t.tenant_id = a2.tenant_id and t.dataset_id = a2.dataset_id and t.account_id = a2.id
          where a2.tenant_id = ${tenantId} and a2.dataset_id = ${datasetId}
          group by a2.id) s
    where a.tenant_id = ${tenantId} and a.dataset_id = ${datasetId} and a.id = s.id`);

  // A PDF copy of a few invoices, as an ERP attaches them.
  if (T > 0) {
    await executor.execute(sql`
      insert into transaction_documents (tenant_id, dataset_id, id, transaction_id, created_on, file_name, file_type, file_size, data)
      select t.tenant_id, t.dataset_id, gen_random_uuid(), t.id, t.created_on, t.transaction_reference || '.pdf', 'application/pdf', ${invoicePdf.length}, ${invoicePdf}
      from transactions t
      where t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId} and t.transaction_type = 'Invoice'
        and t.transaction_reference <= ${'INV' + String(Math.min(T, 12)).padStart(7, '0')}`);
  }

  const banks = Array.from({ length: size.banks }, (_, index) => demoBank(index + 1));
  if (banks.length > 0) {
    await executor.execute(sql`
      insert into banks (tenant_id, dataset_id, id, account_name, currency, description, account_number, sort_code, iban, bank_name, source)
      select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(), b->>'accountName', b->>'currency', b->>'description', b->>'accountNumber',
        b->>'sortCode', b->>'iban', b->>'bankName', 'Sage 200'
      from jsonb_array_elements(${JSON.stringify(banks)}::jsonb) as b`);
  }
}

/** UK banks with the sort-code range and IBAN bank code they really use. */
const ukBanks = [
  { bankName: 'Barclays', ibanCode: 'BARC', sortCodePrefix: '20' },
  { bankName: 'HSBC', ibanCode: 'HBUK', sortCodePrefix: '40' },
  { bankName: 'Lloyds Bank', ibanCode: 'LOYD', sortCodePrefix: '30' },
  { bankName: 'NatWest', ibanCode: 'NWBK', sortCodePrefix: '60' },
] as const;

/** ISO 13616 check digits: the IBAN with 00, rearranged, letters as numbers, 98 − (mod 97). */
function ibanOf(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/** A company bank account whose bank name, sort code and IBAN agree. */
function demoBank(i: number) {
  const bank = ukBanks[(i - 1) % ukBanks.length]!;
  const sortCode = `${bank.sortCodePrefix}${String((i * 37) % 100).padStart(2, '0')}${String((i * 53) % 100).padStart(2, '0')}`;
  const accountNumber = String((i * 7919 * 1013) % 100_000_000).padStart(8, '0');
  const currency = (['GBP', 'GBP', 'EUR', 'USD'] as const)[(i - 1) % 4]!;
  return {
    accountName: (['Current Account', 'Collections Account', 'Euro Account', 'Dollar Account'] as const)[(i - 1) % 4]!,
    currency,
    description: `Company account ${i}`,
    accountNumber,
    sortCode: `${sortCode.slice(0, 2)}-${sortCode.slice(2, 4)}-${sortCode.slice(4, 6)}`,
    iban: ibanOf('GB', `${bank.ibanCode}${sortCode}${accountNumber}`),
    bankName: bank.bankName,
  };
}

/** A one-page PDF (a valid file with its cross-reference table), attached to demo invoices. */
const invoicePdf: Buffer = (() => {
  const text = 'BT /F1 18 Tf 72 720 Td (Invoice - Ledgerline demo company) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
})();

/**
 * The lifecycle's demo generator (datasets.jobs.ts): a demo company starts, and resets, with this;
 * its payments name the company's Sandbox configuration `paymentProviderId`.
 */
export async function refillDemoCompany(executor: Executor, scope: DemoScope, paymentProviderId: string): Promise<void> {
  await clearReceivables(executor, scope);
  await generateReceivables(executor, scope, demoCompanySize, { paymentProviderId });
}
