import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { demoCompanySize, generateReceivables, type DemoDataSize } from './demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

// A generated company does not contradict itself. Each query below returns the
// rows that break one invariant, so a failure names them.

let ctx: TestContext;
const companies: { name: string; who: SignedIn; size: DemoDataSize }[] = [];

beforeAll(async () => {
  ctx = await buildTestApp();
  const sizes: [string, DemoDataSize][] = [
    ['a demo company', demoCompanySize],
    // Few requests, many attempts each: Multiple requests paid in instalments.
    ['a company paid in instalments', { accounts: 6, transactions: 10, paymentRequests: 4, paymentTransactions: 120, banks: 1 }],
  ];
  for (const [name, size] of sizes) {
    const who = await signIn(ctx, { tenantName: `Believable ${name}` });
    await ctx.database.withTenant(who.tenantId, (tx) => generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size));
    companies.push({ name, who, size });
  }
});
afterAll(() => ctx.close());

async function rows(who: SignedIn, query: ReturnType<typeof sql>) {
  const result = await ctx.database.withTenant(who.tenantId, (tx) => tx.execute(query));
  return ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as Record<string, unknown>[];
}

const scope = (who: SignedIn) => sql`tenant_id = ${who.tenantId} and dataset_id = 1`;

describe.each(['a demo company', 'a company paid in instalments'])('%s', (name) => {
  const company = () => companies.find((candidate) => candidate.name === name)!;

  it('has the rows it was asked for, and every kind of them', async () => {
    const { who, size } = company();
    const [counts] = await rows(who, sql`select
      (select count(*) from payment_transactions where ${scope(who)})::int as payments,
      (select count(*) from transactions where ${scope(who)})::int as transactions,
      (select count(*) from payment_requests where ${scope(who)})::int as requests,
      (select count(distinct status) from payment_transactions where ${scope(who)})::int as payment_statuses,
      (select count(*) from payment_transactions where ${scope(who)} and status = 'Pending')::int as pending,
      (select count(*) from provider_events where ${scope(who)})::int as events,
      (select count(*) from payment_fee_transactions where ${scope(who)})::int as late_fees,
      (select count(*) from settlement_offers where ${scope(who)})::int as offers,
      (select count(*) from transaction_documents where ${scope(who)})::int as documents`);
    expect(counts).toMatchObject({ payments: size.paymentTransactions, transactions: size.transactions, requests: size.paymentRequests });
    expect(counts!.payment_statuses).toBeGreaterThanOrEqual(4);
    expect(counts!.pending).toBeGreaterThan(0);
    expect(counts!.events).toBeGreaterThanOrEqual(size.paymentTransactions);
    expect(counts!.documents).toBeGreaterThan(0);
    if (name === 'a demo company') {
      expect(counts!.late_fees).toBeGreaterThan(0);
      expect(counts!.offers).toBeGreaterThan(0);
    }
  });

  it('gives each account the balance and overdue amount its transactions owe', async () => {
    const { who } = company();
    const wrong = await rows(who, sql`
      select a.account_reference, a.balance, a.overdue_amount, s.balance as owed, s.overdue as owed_overdue
      from accounts a
      left join lateral (
        select coalesce(sum(case when t.transaction_type = 'CreditNote' then -1 else 1 end
                 * (t.transaction_amount - t.allocated_amount - t.discounted_amount)), 0) as balance,
               coalesce(sum(t.transaction_amount - t.allocated_amount - t.discounted_amount)
                 filter (where t.transaction_type <> 'CreditNote' and t.due_date < current_date), 0) as overdue
        from transactions t where t.tenant_id = a.tenant_id and t.dataset_id = a.dataset_id and t.account_id = a.id) s on true
      where a.tenant_id = ${who.tenantId} and a.dataset_id = 1
        and (a.balance <> s.balance or a.overdue_amount <> s.overdue)`);
    expect(wrong).toEqual([]);
    // Some account owes past due, so the Overdue column and badges have something to show.
    const [overdue] = await rows(who, sql`select count(*)::int as n from accounts where ${scope(who)} and overdue_amount > 0`);
    if (name === 'a demo company') expect(overdue!.n).toBeGreaterThan(0);
  });

  it('allocates no payment beyond its amount, and no pending or failed payment at all', async () => {
    const { who } = company();
    expect(
      await rows(who, sql`select pt.id, pt.status, pt.total_amount, sum(a.allocated_amount) as allocated
        from payment_transactions pt join payment_allocations a on a.tenant_id = pt.tenant_id and a.dataset_id = pt.dataset_id and a.payment_transaction_id = pt.id
        where pt.tenant_id = ${who.tenantId} and pt.dataset_id = 1 and a.status <> 'Cancelled'
        group by pt.id, pt.status, pt.total_amount, pt.allocated_status
        having sum(a.allocated_amount) > pt.total_amount or pt.status <> 'Paid' or pt.allocated_status not in ('AutoAllocated', 'ManuallyAllocated')`),
    ).toEqual([]);
    expect(
      await rows(who, sql`select pt.id from payment_transactions pt where ${scope(who)} and pt.allocated_status in ('AutoAllocated', 'ManuallyAllocated')
        and not exists (select 1 from payment_allocations a where a.tenant_id = pt.tenant_id and a.dataset_id = pt.dataset_id and a.payment_transaction_id = pt.id)`),
    ).toEqual([]);
  });

  it('derives each invoice’s allocated amount and paid status from its allocations', async () => {
    const { who } = company();
    expect(
      await rows(who, sql`select t.transaction_reference, t.allocated_amount, t.paid_status, coalesce(s.allocated, 0) as from_allocations
        from transactions t
        left join (select transaction_id, sum(allocated_amount) as allocated from payment_allocations
                   where ${scope(who)} and status <> 'Cancelled' and transaction_id is not null group by transaction_id) s on s.transaction_id = t.id
        where t.tenant_id = ${who.tenantId} and t.dataset_id = 1 and (
          t.allocated_amount <> coalesce(s.allocated, 0)
          or t.allocated_amount + t.discounted_amount > t.transaction_amount
          or t.paid_status <> case when t.allocated_amount + t.discounted_amount >= t.transaction_amount then 'FullyPaid'
                                   when t.allocated_amount + t.discounted_amount > 0 then 'PartPaid' else 'Unpaid' end)`),
    ).toEqual([]);
  });

  it('runs forward in time: invoice, request, payment, allocation, fee, event, all before now', async () => {
    const { who } = company();
    expect(
      await rows(who, sql`select pt.id, q.created_on as requested, pt.created_on as paid
        from payment_transactions pt join payment_requests q on q.tenant_id = pt.tenant_id and q.dataset_id = pt.dataset_id and q.id = pt.payment_request_id
        where pt.tenant_id = ${who.tenantId} and pt.dataset_id = 1
          and (pt.created_on <= q.created_on or pt.status_date_time < pt.created_on or pt.status_date_time > now())`),
    ).toEqual([]);
    expect(await rows(who, sql`select id from payment_transactions where ${scope(who)} and payment_request_id is null`)).toEqual([]);
    expect(
      await rows(who, sql`select t.transaction_reference from payment_request_allocations x
        join transactions t on t.tenant_id = x.tenant_id and t.dataset_id = x.dataset_id and t.id = x.transaction_id
        join payment_requests q on q.tenant_id = x.tenant_id and q.dataset_id = x.dataset_id and q.id = x.payment_request_id
        where x.tenant_id = ${who.tenantId} and x.dataset_id = 1
          and (t.transaction_date > (q.created_on at time zone 'UTC')::date or t.due_date < t.transaction_date or t.account_id <> q.account_id)`),
    ).toEqual([]);
    expect(
      await rows(who, sql`select a.id from payment_allocations a
        join payment_transactions pt on pt.tenant_id = a.tenant_id and pt.dataset_id = a.dataset_id and pt.id = a.payment_transaction_id
        where a.tenant_id = ${who.tenantId} and a.dataset_id = 1 and a.created_on < pt.created_on`),
    ).toEqual([]);
    expect(
      await rows(who, sql`select f.id from payment_fee_transactions f
        join transactions t on t.tenant_id = f.tenant_id and t.dataset_id = f.dataset_id and t.id = f.transaction_id
        where f.tenant_id = ${who.tenantId} and f.dataset_id = 1 and (f.created_on at time zone 'UTC')::date <= t.due_date`),
    ).toEqual([]);
    expect(
      await rows(who, sql`select e.id from provider_events e
        join payment_transactions pt on pt.tenant_id = e.tenant_id and pt.dataset_id = e.dataset_id and pt.id = e.payment_transaction_id
        where e.tenant_id = ${who.tenantId} and e.dataset_id = 1 and e.created_on < pt.created_on`),
    ).toEqual([]);
  });

  it('gives each request the status its payments give it, and Transaction requests their invoices', async () => {
    const { who } = company();
    expect(
      await rows(who, sql`select q.id, q.request_status, q.amount_to_pay, s.paid, s.pending
        from payment_requests q
        left join lateral (select coalesce(sum(pt.total_amount) filter (where pt.status = 'Paid'), 0) as paid, coalesce(bool_or(pt.status = 'Pending'), false) as pending
          from payment_transactions pt where pt.tenant_id = q.tenant_id and pt.dataset_id = q.dataset_id and pt.payment_request_id = q.id) s on true
        where q.tenant_id = ${who.tenantId} and q.dataset_id = 1 and not (
          (q.request_status = 'Completed' and s.paid >= q.amount_to_pay)
          or (q.request_status = 'PartCompleted' and s.paid > 0 and s.paid < q.amount_to_pay)
          or (q.request_status = 'Pending' and s.paid = 0 and s.pending)
          or (q.request_status in ('Open', 'Expired', 'Cancelled') and s.paid = 0 and not s.pending)
          or (q.request_status = 'Expired' and s.paid > 0 and s.paid < q.amount_to_pay and q.valid_until < now()))`),
    ).toEqual([]);
    // Nothing is left for the expiry sweep: no Open or PartCompleted request is past its valid-until.
    expect(
      await rows(who, sql`select q.id from payment_requests q where ${scope(who)}
        and q.request_status in ('Open', 'PartCompleted') and q.valid_until < now()`),
    ).toEqual([]);
    expect(
      await rows(who, sql`select q.id from payment_requests q where ${scope(who)} and q.request_type = 'Transaction'
        and not exists (select 1 from payment_request_allocations x where x.tenant_id = q.tenant_id and x.dataset_id = q.dataset_id and x.payment_request_id = q.id)`),
    ).toEqual([]);
    expect(
      await rows(who, sql`select q.id from payment_requests q where ${scope(who)} and q.capture_type = 'Immediate'
        and exists (select 1 from payment_transactions pt where pt.tenant_id = q.tenant_id and pt.dataset_id = q.dataset_id and pt.payment_request_id = q.id and pt.status = 'Pending')`),
    ).toEqual([]);
  });

  it('names one provider consistently, and banks their own codes', async () => {
    const { who } = company();
    expect(
      await rows(who, sql`select id from payment_transactions where ${scope(who)}
        and (payment_provider_name <> 'Sandbox' or payment_provider_reference not like 'sbx\\_%' or payment_method_type not in ('Card', 'BankTransfer', 'BankDebit'))`),
    ).toEqual([]);
    const banks = await rows(who, sql`select bank_name, sort_code, iban from banks where ${scope(who)}`);
    const codes: Record<string, [string, string]> = { Barclays: ['BARC', '20'], HSBC: ['HBUK', '40'], 'Lloyds Bank': ['LOYD', '30'], NatWest: ['NWBK', '60'] };
    for (const bank of banks) {
      const [ibanCode, sortPrefix] = codes[bank.bank_name as string]!;
      const iban = bank.iban as string;
      expect(iban.slice(4, 8)).toBe(ibanCode);
      expect(iban.slice(8, 14)).toBe((bank.sort_code as string).replace(/-/g, ''));
      expect((bank.sort_code as string).startsWith(sortPrefix)).toBe(true);
      // ISO 13616: the rearranged IBAN, letters as numbers, is 1 mod 97.
      const digits = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
      expect(BigInt(digits) % 97n).toBe(1n);
    }
  });
});
