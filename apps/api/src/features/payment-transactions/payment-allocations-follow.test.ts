import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { accounts, paymentAllocations, paymentTransactions, settlementOffers, transactions } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

// After a capture a pending payment's allocations sum to what was captured, after
// a cancel they are Cancelled, and the invoices' allocated amount, amount owed and paid status follow.
// A reservation's allocations are Provisional and never count as paid: the invoices owe
// in full until the capture (they used to be written as already allocated).

let ctx: TestContext;
let merchant: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Follow The Money Ltd' });
});
afterAll(() => ctx.close());

interface Invoice {
  amount: string;
  allocated: string;
  due: string;
  discount?: string;
}

/** An account, its invoices, and one Pending sandbox payment allocated across them as given. */
async function pendingPaymentOver(total: string, invoices: Invoice[]) {
  const scope = { tenantId: merchant.tenantId, datasetId: 1 };
  const accountId = randomUUID();
  const paymentId = randomUUID();
  const invoiceIds = invoices.map(() => randomUUID());
  const offerIds = invoices.map(() => randomUUID());
  await ctx.database.withTenant(merchant.tenantId, async (tx) => {
    await tx.insert(accounts).values({ ...scope, id: accountId, accountReference: `ACC-${accountId.slice(0, 8)}`, name: 'Brookfield Supplies Ltd' });
    for (const [n, invoice] of invoices.entries()) {
      await tx.insert(transactions).values({
        ...scope,
        id: invoiceIds[n]!,
        accountId,
        transactionReference: `INV-${invoiceIds[n]!.slice(0, 8)}`,
        transactionType: 'Invoice',
        transactionDate: '2026-10-01',
        dueDate: invoice.due,
        currency: 'GBP',
        transactionAmount: invoice.amount,
        // Provisional money does not count: the invoice owes all of it until the capture.
        allocatedAmount: '0',
        discountedAmount: '0',
        paidStatus: 'Unpaid',
      });
      if (invoice.discount) {
        await tx.insert(settlementOffers).values({ ...scope, id: offerIds[n]!, transactionId: invoiceIds[n]!, type: 'AbsoluteDiscount', status: 'Used', currency: 'GBP', amount: invoice.discount });
      }
    }
    await tx.insert(paymentTransactions).values({
      ...scope,
      id: paymentId,
      type: 'Payment',
      status: 'Pending',
      ledgerlineReference: `LL${paymentId.slice(0, 8)}`,
      statusDateTime: new Date(),
      totalAmount: total,
      currency: 'GBP',
      accountId,
      paymentProviderName: 'Sandbox',
      paymentProviderReference: 'sbx_auth_1',
      paymentMethodType: 'Card',
    });
    for (const [n, invoice] of invoices.entries()) {
      await tx.insert(paymentAllocations).values({
        ...scope,
        id: randomUUID(),
        paymentTransactionId: paymentId,
        // Allocated in the reverse order of the due dates, so the order comes from the due date.
        createdOn: new Date(Date.UTC(2026, 10, 1, 12, 0, invoices.length - n)),
        type: 'Payment',
        status: 'Provisional',
        entityType: 'Transaction',
        transactionId: invoiceIds[n]!,
        settlementOfferId: invoice.discount ? offerIds[n]! : null,
        discountedAmount: invoice.discount ?? '0',
        allocatedAmount: invoice.allocated,
      });
    }
  });
  return { paymentId, invoiceIds, offerIds };
}

const headers = () => merchant.headers({ 'dataset-id': '1' });
const act = (id: string, action: 'capture' | 'cancel', payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/v0/payment-transactions/${id}/pending/${action}`, headers: headers(), payload });
const invoice = async (id: string) => (await ctx.app.inject({ method: 'GET', url: `/api/v0/transactions/${id}`, headers: headers() })).json();
const payment = async (id: string) => (await ctx.app.inject({ method: 'GET', url: `/api/v0/payment-transactions/${id}`, headers: headers() })).json();
const allocationsByInvoice = (body: { paymentAllocations: { transactionId: string; status: string; allocatedAmount: number }[] }) =>
  Object.fromEntries(body.paymentAllocations.map((allocation) => [allocation.transactionId, [allocation.status, allocation.allocatedAmount]]));

describe('allocations follow a capture or a cancel', () => {
  it('captures £4,000 of £4,276.10 on one invoice: the allocation and the invoice hold £4,000', async () => {
    const { paymentId, invoiceIds } = await pendingPaymentOver('4276.10', [{ amount: '4276.10', allocated: '4276.10', due: '2026-11-30' }]);
    const response = await act(paymentId, 'capture', { amountToCapture: 4000 });
    expect(response.json()).toMatchObject({ isError: false, paymentTransaction: { status: 'Paid', totalAmount: 4000 } });
    expect(allocationsByInvoice(await payment(paymentId))).toEqual({ [invoiceIds[0]!]: ['Allocated', 4000] });
    expect(await invoice(invoiceIds[0]!)).toMatchObject({ allocatedAmount: 4000, amountOwed: 276.1, paidStatus: 'PartPaid' });
  });

  it('spreads a part capture over several invoices, the one due first first, each up to what it held', async () => {
    const { paymentId, invoiceIds } = await pendingPaymentOver('4276.10', [
      { amount: '776.10', allocated: '776.10', due: '2026-12-31' },
      { amount: '1500.00', allocated: '1500.00', due: '2026-12-15' },
      { amount: '2500.00', allocated: '2000.00', due: '2026-11-30' },
    ]);
    await act(paymentId, 'capture', { amountToCapture: 3000.05 });
    const [latest, middle, first] = invoiceIds as [string, string, string];
    expect(allocationsByInvoice(await payment(paymentId))).toEqual({
      [first]: ['Allocated', 2000],
      [middle]: ['Allocated', 1000.05],
      [latest]: ['Cancelled', 0],
    });
    expect(await invoice(first)).toMatchObject({ allocatedAmount: 2000, amountOwed: 500, paidStatus: 'PartPaid' });
    expect(await invoice(middle)).toMatchObject({ allocatedAmount: 1000.05, amountOwed: 499.95, paidStatus: 'PartPaid' });
    expect(await invoice(latest)).toMatchObject({ allocatedAmount: 0, amountOwed: 776.1, paidStatus: 'Unpaid' });
  });

  it('keeps every allocation of a full capture and marks the paid invoices FullyPaid', async () => {
    const { paymentId, invoiceIds } = await pendingPaymentOver('300.00', [
      { amount: '100.00', allocated: '100.00', due: '2026-12-01' },
      { amount: '200.00', allocated: '200.00', due: '2026-12-02' },
    ]);
    await act(paymentId, 'capture', { amountToCapture: 300 });
    expect(allocationsByInvoice(await payment(paymentId))).toEqual({ [invoiceIds[0]!]: ['Allocated', 100], [invoiceIds[1]!]: ['Allocated', 200] });
    expect(await invoice(invoiceIds[1]!)).toMatchObject({ allocatedAmount: 200, amountOwed: 0, paidStatus: 'FullyPaid' });
  });

  it('cancels the allocations of a cancelled payment, withdraws their discount and reopens its offer', async () => {
    const { paymentId, invoiceIds, offerIds } = await pendingPaymentOver('9950.90', [{ amount: '10000.00', allocated: '9950.90', due: '2026-11-30', discount: '49.10' }]);
    // Reserved, not paid: the invoice owes all of it and the discount is not given yet.
    expect(await invoice(invoiceIds[0]!)).toMatchObject({ amountOwed: 10000, discountedAmount: 0, paidStatus: 'Unpaid' });
    const response = await act(paymentId, 'cancel', { note: 'Order withdrawn' });
    expect(response.json()).toMatchObject({ isError: false, paymentTransaction: { status: 'Cancelled' } });
    expect(allocationsByInvoice(await payment(paymentId))).toEqual({ [invoiceIds[0]!]: ['Cancelled', 0] });
    const after = await invoice(invoiceIds[0]!);
    expect(after).toMatchObject({ allocatedAmount: 0, discountedAmount: 0, amountOwed: 10000, paidStatus: 'Unpaid' });
    expect(after.settlementOffers.find((offer: { id: string }) => offer.id === offerIds[0])).toMatchObject({ status: 'Open' });
  });

  it('leaves the allocations alone when the provider declines the capture', async () => {
    const { paymentId, invoiceIds } = await pendingPaymentOver('500.00', [{ amount: '500.00', allocated: '500.00', due: '2026-11-30' }]);
    const response = await act(paymentId, 'capture', { amountToCapture: 100.99 });
    expect(response.json()).toMatchObject({ isError: true, paymentTransaction: { status: 'Pending' } });
    expect(allocationsByInvoice(await payment(paymentId))).toEqual({ [invoiceIds[0]!]: ['Provisional', 500] });
    expect(await invoice(invoiceIds[0]!)).toMatchObject({ allocatedAmount: 0, amountOwed: 500, paidStatus: 'Unpaid' });
  });
});
