import { sql } from 'drizzle-orm';
import { demoBank } from './demo-banks.js';
import { invoicePdf } from './demo-invoice-pdf.js';
import {
  cities,
  firstNames,
  surnames,
  utcDay,
  type DemoRun,
} from './demo-receivables.repository.js';

// The demo generator's SQL (demo-data.ts runs it), after the requests: payments, their
// allocations and fees, the provider's events, offers, balances, documents and banks.

/** The payment attempts after the first of a Multiple request (statuses, in turn). */
const instalmentStatuses = sql.raw(
  `array['Paid','Paid','Failed','Paid','NotAuthorised','Paid','Pending','Rejected','Paid','Processing','Paid','Refunded']`,
);
const failures = sql.raw(`array['Failed','NotAuthorised','Rejected']`);

/** The payment attempts of each request. */
export async function insertPayments(run: DemoRun) {
  const { executor, tenantId, datasetId, nowIso, requestCount, P, R, analyze, options } = run;
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
}

/** Captured payments allocated to their requests' invoices or accounts. */
export async function allocatePayments(run: DemoRun) {
  const { executor, tenantId, datasetId, analyze } = run;
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
}

/** Invoices' paid status and requests' status, from the payments. */
export async function settleInvoicesAndRequests(run: DemoRun) {
  const { executor, tenantId, datasetId, nowIso } = run;
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
}

/** Late-payment fees on invoices paid late. */
export async function chargeLateFees(run: DemoRun) {
  const { executor, tenantId, datasetId } = run;
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
}

/** The Sandbox provider's event for each payment. */
export async function recordProviderEvents(run: DemoRun) {
  const { executor, tenantId, datasetId } = run;
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
}

/** Early-payment offers on some invoices. */
export async function offerDiscounts(run: DemoRun) {
  const { executor, tenantId, datasetId } = run;
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
}

/** Accounts' balance and overdue amount, from their transactions. */
export async function updateBalances(run: DemoRun) {
  const { executor, tenantId, datasetId, today } = run;
  // Each account's balance and overdue amount are what its transactions still owe
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
}

/** A PDF copy of a few invoices. */
export async function attachInvoicePdfs(run: DemoRun) {
  const { executor, tenantId, datasetId, T } = run;
  // A PDF copy of a few invoices, as an ERP attaches them.
  if (T > 0) {
    await executor.execute(sql`
      insert into transaction_documents (tenant_id, dataset_id, id, transaction_id, created_on, file_name, file_type, file_size, data)
      select t.tenant_id, t.dataset_id, gen_random_uuid(), t.id, t.created_on, t.transaction_reference || '.pdf', 'application/pdf', ${invoicePdf.length}, ${invoicePdf}
      from transactions t
      where t.tenant_id = ${tenantId} and t.dataset_id = ${datasetId} and t.transaction_type = 'Invoice'
        and t.transaction_reference <= ${'INV' + String(Math.min(T, 12)).padStart(7, '0')}`);
  }
}

/** The company's bank accounts. */
export async function insertBanks(run: DemoRun) {
  const { executor, tenantId, datasetId, size } = run;
  const banks = Array.from({ length: size.banks }, (_, index) => demoBank(index + 1));
  if (banks.length > 0) {
    await executor.execute(sql`
      insert into banks (tenant_id, dataset_id, id, account_name, currency, description, account_number, sort_code, iban, bank_name, source)
      select ${tenantId}::uuid, ${datasetId}, gen_random_uuid(), b->>'accountName', b->>'currency', b->>'description', b->>'accountNumber',
        b->>'sortCode', b->>'iban', b->>'bankName', 'Sage 200'
      from jsonb_array_elements(${JSON.stringify(banks)}::jsonb) as b`);
  }
}
