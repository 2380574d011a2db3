import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { sandboxCards } from '@ledgerline/contract';
import { payQuotes } from '../../db/schema-pay.js';
import { webHookEvents } from '../../db/schema-web-hooks.js';
import { auditActivities } from '../../db/schema.js';
import {
  paymentAllocations,
  paymentFeeTransactions,
  paymentRequests,
  paymentTransactions,
  settlementOffers,
  transactions,
} from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { waitFor } from '../../../test/wait.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { day, insertAccount, insertInvoice, insertRequest, mailsIn } from '../../../test/fixtures/pay.js';

let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let accountId: string;
let sandboxId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-pay-'));
const outbox = join(dataDir, 'mail');

const pay = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });

async function provider(body: object) {
  const response = await call(admin, 'POST', 'providers', {
    providerName: 'Sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir, RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Pay Page Ltd' });
  // The Sandbox test provider belongs to demo companies.
  await makeDemoCompany(ctx, admin);
  accountId = await insertAccount(ctx, admin, { name: 'Payer Customer Ltd' });
  // The first configuration is the company's default.
  sandboxId = await provider({ name: 'Card (test)' });
  await call(admin, 'PUT', 'company-settings', {
    companyDetails: {
      name: 'Pay Page Widgets Ltd',
      website: 'https://widgets.example',
      mainAddress: {
        firstNames: 'Pat',
        surname: 'Page',
        email: 'accounts@widgets.example',
        telephone: '0113 000 0000',
        address1: '1 Pay Street',
        city: 'Leeds',
        state: 'England',
        postCode: 'LS1 1AA',
        country: 'United Kingdom',
      },
    },
  });
  // Staff are told about successful payments.
  const recipient = await call(admin, 'POST', 'notifications/users', {
    type: 'EmailAddress',
    emailAddress: 'finance@widgets.example',
  });
  await call(admin, 'PUT', 'notifications/users', {
    id: recipient.json().id,
    notificationSettings: [
      { notificationName: 'TenantPaymentSuccessful', isEnabled: true },
      { notificationName: 'TenantPaymentFailed', isEnabled: true },
    ],
  });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the payer page', () => {
  it('shows an Open Transaction request: company, invoices, totals and the Sandbox method', async () => {
    const first = await insertInvoice(ctx, admin, accountId, {
      amount: '120',
      transactionDate: day(-5),
      dueDate: day(25),
    });
    const second = await insertInvoice(ctx, admin, accountId, {
      amount: '80.50',
      transactionDate: day(-3),
      dueDate: day(27),
    });
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '200.50' }, [
      first,
      second,
    ]);
    const response = await pay('GET', id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const page = response.json();
    expect(page).toMatchObject({
      id,
      state: 'Open',
      requestType: 'Transaction',
      usageType: 'Single',
      reference: 'CUST-1',
      // Stored without one: nothing to fill in for the payer.
      billingContact: null,
      currency: 'GBP',
      quotedOn: day(0),
      company: {
        name: 'Pay Page Widgets Ltd',
        logoUrl: null,
        website: 'https://widgets.example',
        emailAddress: 'accounts@widgets.example',
        telephone: '0113 000 0000',
        addressLines: ['1 Pay Street', 'Leeds', 'England', 'LS1 1AA', 'United Kingdom'],
      },
      discountTotal: 0,
      feeTotal: 0,
      amountToPay: 200.5,
      paidAmount: 0,
      partPayment: null,
      receipt: null,
      test: true,
    });
    expect(
      page.invoices.map((i: { transactionId: string; amountToPay: number }) => [
        i.transactionId,
        i.amountToPay,
      ]),
    ).toEqual([
      [first, 120],
      [second, 80.5],
    ]);
    expect(page.methods).toEqual([
      {
        configurationId: sandboxId,
        providerName: 'Sandbox',
        displayName: 'Card (test)',
        group: 'Card',
        isDefault: true,
        isTest: true,
      },
    ]);
  });

  it("gives the billing contact's name and e-mail so the payer need not type them", async () => {
    const id = await insertRequest(ctx, admin, {
      accountId,
      billingContact: {
        companyName: 'Payer Customer Ltd',
        firstNames: 'Robin',
        surname: 'Payer',
        emailAddress: 'robin@payer.example',
        address: { address1: '2 Private Road', city: 'York' },
      },
    });
    const page = (await pay('GET', id)).json();
    // Only what fills the form in: not the contact's address.
    expect(page.billingContact).toEqual({
      firstNames: 'Robin',
      surname: 'Payer',
      emailAddress: 'robin@payer.example',
    });

    const blank = await insertRequest(ctx, admin, {
      accountId,
      billingContact: { companyName: 'Payer Customer Ltd', firstNames: ' ', surname: null, emailAddress: null, address: null },
    });
    expect((await pay('GET', blank)).json().billingContact).toBeNull();
  });

  it('answers every unavailable request exactly like an unknown id', async () => {
    const unknown = await pay('GET', randomUUID());
    expect(unknown.json()).toEqual({ state: 'Expired' });
    expect((await pay('GET', 'not-a-request')).body).toBe(unknown.body);
    const expired = [
      await insertRequest(ctx, admin, { accountId, validUntil: new Date(Date.now() - 60_000) }),
      await insertRequest(ctx, admin, { accountId, requestStatus: 'Expired' }),
    ];
    // Past its payment-required-by day a request is overdue, not expired.
    const overdue = await insertRequest(ctx, admin, { accountId, paymentRequiredBy: day(-1) });
    expect((await pay('GET', overdue)).json()).toMatchObject({ state: 'Open', overdue: true });
    for (const id of expired) {
      const response = await pay('GET', id);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(unknown.body);
    }
    // Still valid today: required by today, valid for another minute.
    const today = await insertRequest(ctx, admin, {
      accountId,
      paymentRequiredBy: day(0),
      validUntil: new Date(Date.now() + 60_000),
    });
    expect((await pay('GET', today)).json().state).toBe('Open');
    const start = await pay('POST', `${expired[0]}/payments`, { configurationId: sandboxId });
    expect(start.statusCode).toBe(409);
    expect(start.json().detail).toBe('This payment request has expired or does not exist.');
    const startUnknown = await pay('POST', `${randomUUID()}/payments`, {
      configurationId: sandboxId,
    });
    expect(startUnknown.statusCode).toBe(409);
    expect(startUnknown.json().detail).toBe(start.json().detail);
  });

  it('reads the request as it is now on every GET: its status, its invoices, a request gone', async () => {
    const invoice = await insertInvoice(ctx, admin, accountId, {
      amount: '250.00',
      transactionDate: day(-2),
      dueDate: day(28),
    });
    const id = await insertRequest(ctx, admin, { accountId }, [invoice]);
    const first = (await pay('GET', id)).json();
    expect(first).toMatchObject({ state: 'Open', amountToPay: 250 });
    expect(first.invoices).toHaveLength(1);
    // Paid elsewhere in part: the next GET shows what is left.
    await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx.update(transactions).set({ allocatedAmount: '100' }).where(eq(transactions.id, invoice)),
    );
    expect((await pay('GET', id)).json()).toMatchObject({
      state: 'Open',
      amountToPay: 150,
      invoices: [{ transactionId: invoice, outstandingAmount: 150 }],
    });
    await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx.update(paymentRequests).set({ requestStatus: 'Cancelled' }).where(eq(paymentRequests.id, id)),
    );
    expect((await pay('GET', id)).json()).toMatchObject({ state: 'Cancelled', methods: [] });
    // Gone: exactly the unknown id's answer, however often it was read before.
    await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx.delete(paymentRequests).where(eq(paymentRequests.id, id)),
    );
    const unknown = await pay('GET', randomUUID());
    expect((await pay('GET', id)).body).toBe(unknown.body);
  });

  it('shows Cancelled, Completed with its receipt, and PartCompleted with what is left', async () => {
    const cancelled = await insertRequest(ctx, admin, { accountId, requestStatus: 'Cancelled' });
    expect((await pay('GET', cancelled)).json()).toMatchObject({ state: 'Cancelled', methods: [] });
    const refused = await pay('POST', `${cancelled}/payments`, { configurationId: sandboxId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('This payment request was cancelled.');

    const multiple = await insertRequest(ctx, admin, {
      accountId,
      usageType: 'Multiple',
      amountToPay: '100',
    });
    const started = await pay('POST', `${multiple}/payments`, {
      configurationId: sandboxId,
      amount: 30,
    });
    expect(started.statusCode, started.body).toBe(201);
    await pay(
      'POST',
      `${multiple}/payments/${started.json().paymentId}/sandbox`,
      card(sandboxCards.succeeds),
    );
    const part = (await pay('GET', multiple)).json();
    expect(part).toMatchObject({
      state: 'PartCompleted',
      amountToPay: 70,
      paidAmount: 30,
      partPayment: { minimumAmount: 0.01, maximumAmount: 70 },
      receipt: {
        paymentId: started.json().paymentId,
        amount: 30,
        currency: 'GBP',
        providerName: 'Sandbox',
      },
    });

    const rest = await pay('POST', `${multiple}/payments`, {
      configurationId: sandboxId,
      amount: 70,
    });
    await pay(
      'POST',
      `${multiple}/payments/${rest.json().paymentId}/sandbox`,
      card(sandboxCards.succeeds),
    );
    const done = (await pay('GET', multiple)).json();
    expect(done).toMatchObject({
      state: 'Completed',
      amountToPay: 0,
      paidAmount: 100,
      methods: [],
      receipt: { paymentId: rest.json().paymentId },
    });
    const again = await pay('POST', `${multiple}/payments`, { configurationId: sandboxId });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('This payment request has already been paid.');
  });

  it('lists only enabled methods whose currency and amount filters match, the default first', async () => {
    const company = await signIn(ctx, { tenantName: 'Methods Ltd' });
    // The Sandbox test provider belongs to demo companies.
    await makeDemoCompany(ctx, company);
    const account = await insertAccount(ctx, company);
    const make = async (name: string, extra: object = {}) => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/providers',
        headers: company.headers({ 'dataset-id': '1' }),
        payload: {
          providerName: 'Sandbox',
          name,
          enabled: true,
          displayPriority: 5,
          isTest: true,
          ...extra,
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    const filtered = (filterConfigurations: object[]) => ({
      paymentMethodConfigurations: [
        { paymentMethodType: 'Card', enabled: true, filterGroup: { filterConfigurations } },
      ],
    });
    const low = await make('A low priority', { displayPriority: 1 });
    const gbpOnly = await make(
      'GBP only',
      filtered([{ filterType: 'Currencies', currencies: ['GBP'] }]),
    );
    await make('EUR only', filtered([{ filterType: 'Currencies', currencies: ['EUR'] }]));
    await make(
      'Up to 50',
      filtered([
        { filterType: 'PaymentAmount', minimumPaymentValue: null, maximumPaymentValue: 50 },
      ]),
    );
    const from100 = await make(
      'From 100',
      filtered([
        { filterType: 'PaymentAmount', minimumPaymentValue: 100, maximumPaymentValue: null },
      ]),
    );
    await make('Switched off', { enabled: false });
    await make('Method off', {
      paymentMethodConfigurations: [
        { paymentMethodType: 'Card', enabled: false, filterGroup: null },
      ],
    });
    const defaulted = await make('Z default');
    await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/providers/default',
      headers: company.headers({ 'dataset-id': '1' }),
      payload: { paymentProviderId: defaulted },
    });
    const id = await insertRequest(ctx, company, { accountId: account, amountToPay: '150' });
    const methods = (await pay('GET', id))
      .json()
      .methods.map((m: { configurationId: string }) => m.configurationId);
    // The default, then by display priority (higher first), then by name.
    expect(methods).toEqual([defaulted, from100, gbpOnly, low]);
    const notListed = await pay('POST', `${id}/payments`, { configurationId: randomUUID() });
    expect(notListed.statusCode).toBe(422);
    expect(notListed.json().errors.configurationId).toEqual([
      'This way to pay is not available for this request. Please choose another.',
    ]);
  });
});

const card = (cardNumber: string) => ({
  cardholderName: 'Pat Payer',
  cardNumber,
  expiry: '12/30',
  cvc: '123',
});

describe('paying with the Sandbox', () => {
  it('stores what was shown, then allocates it: offer Used, fees recorded, invoices paid, request Completed, activity and mails', async () => {
    const late = await call(admin, 'POST', 'late-payment-configurations', {
      type: 'Uk',
      name: 'UK statutory',
      gracePeriodInDays: 0,
    });
    await call(admin, 'PUT', 'company-settings/preferences', {
      defaultLatePaymentConfigurationId: late.json().id,
    });
    const account = await insertAccount(ctx, admin, { name: 'Late And Early Ltd' });
    const early = await insertInvoice(ctx, admin, account, {
      amount: '500',
      transactionDate: day(-2),
      dueDate: day(28),
    });
    const overdue = await insertInvoice(ctx, admin, account, {
      amount: '900',
      transactionDate: day(-60),
      dueDate: day(-30),
    });
    const offer = await call(admin, 'POST', `transactions/${early}/settlement-offers`, {
      type: 'AbsoluteDiscount',
      amount: 25,
      description: '£25 off for paying this week',
      validUntil: day(5),
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const id = await insertRequest(
      ctx,
      admin,
      { accountId: account, customerName: 'Late And Early Ltd' },
      [early, overdue],
    );

    const page = (await pay('GET', id)).json();
    // The invoice due first comes first.
    const [lateInvoice, earlyInvoice] = page.invoices;
    expect(lateInvoice.transactionId).toBe(overdue);
    expect(earlyInvoice).toMatchObject({
      transactionId: early,
      outstandingAmount: 500,
      discount: 25,
      offer: {
        id: offer.json().id,
        source: 'Manual',
        description: '£25 off for paying this week',
        validUntil: day(5),
      },
      fees: [],
      feesReason: null,
      amountToPay: 475,
    });
    expect(lateInvoice.discount).toBe(0);
    expect(lateInvoice.fees.map((f: { type: string }) => f.type)).toEqual([
      'StatutoryInterest',
      'FixedSum',
    ]);
    expect(lateInvoice.fees[1].amount).toBe(40);
    const due = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${day(-30)}T00:00:00Z`));
    expect(lateInvoice.feesReason).toBe(
      `This invoice was due on ${due}. UK law lets the seller add interest at 8% over the Bank of England base rate and a fixed sum of £40 for late payment.`,
    );
    const feeTotal = lateInvoice.fees[0].amount + 40;
    expect(page.discountTotal).toBe(25);
    expect(page.feeTotal).toBeCloseTo(feeTotal, 2);
    expect(page.amountToPay).toBeCloseTo(475 + 900 + feeTotal, 2);

    const started = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      amount: 1,
      payer: { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@payer.example' },
    });
    expect(started.statusCode).toBe(422);
    expect(started.json().errors.amount).toEqual(['This request must be paid in full.']);
    const ok = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      payer: { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@payer.example' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const { paymentId, amount, next } = ok.json();
    expect(next).toEqual({ kind: 'sandbox' });
    expect(amount).toBeCloseTo(page.amountToPay, 2);

    const scope = (
      table:
        | typeof paymentTransactions
        | typeof payQuotes
        | typeof paymentAllocations
        | typeof paymentFeeTransactions,
    ) => and(eq(table.tenantId, admin.tenantId), eq(table.datasetId, 1));
    const [quote] = await ctx.database.db
      .select()
      .from(payQuotes)
      .where(and(scope(payQuotes), eq(payQuotes.paymentTransactionId, paymentId)));
    expect(quote!.offered).toMatchObject({
      quotedOn: day(0),
      discountTotal: '25',
      invoices: [
        {
          transactionId: overdue,
          discount: '0',
          offer: null,
          fees: [{ type: 'StatutoryInterest' }, { type: 'FixedSum', amount: '40.00' }],
        },
        {
          transactionId: early,
          discount: '25',
          offer: { id: offer.json().id, source: 'Manual' },
          fees: [],
          amountToPay: '475',
        },
      ],
    });
    const [processing] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, paymentId));
    expect(processing).toMatchObject({
      status: 'Processing',
      paymentProviderName: 'Sandbox',
      paymentRequestId: id,
      paymentProviderId: sandboxId,
    });
    expect(processing!.paymentProviderReference).toMatch(/^sbx_pay_/);

    const waiting = (await pay('GET', `${id}/payments/${paymentId}`)).json();
    expect(waiting).toMatchObject({
      paymentId,
      status: 'Processing',
      outcome: 'Waiting',
      message: null,
      receipt: null,
    });

    const paid = await pay(
      'POST',
      `${id}/payments/${paymentId}/sandbox`,
      card(sandboxCards.succeeds),
    );
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      status: 'Paid',
      outcome: 'Succeeded',
      receipt: { paymentId, currency: 'GBP' },
    });

    const [payment] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, paymentId));
    expect(payment).toMatchObject({ status: 'Paid', allocatedStatus: 'AutoAllocated' });
    const allocations = await ctx.database.db
      .select()
      .from(paymentAllocations)
      .where(
        and(scope(paymentAllocations), eq(paymentAllocations.paymentTransactionId, paymentId)),
      );
    expect(
      allocations
        .map((a) => [
          a.transactionId,
          a.type,
          a.status,
          a.entityType,
          Number(a.allocatedAmount),
          Number(a.discountedAmount),
          a.settlementOfferId,
        ])
        .sort(),
    ).toEqual(
      [
        [early, 'Payment', 'Allocated', 'Transaction', 475, 25, offer.json().id],
        [overdue, 'Payment', 'Allocated', 'Transaction', 900, 0, null],
      ].sort(),
    );
    const [usedOffer] = await ctx.database.db
      .select()
      .from(settlementOffers)
      .where(eq(settlementOffers.id, offer.json().id));
    expect(usedOffer!.status).toBe('Used');
    const fees = await ctx.database.db
      .select()
      .from(paymentFeeTransactions)
      .where(
        and(
          scope(paymentFeeTransactions),
          eq(paymentFeeTransactions.paymentTransactionId, paymentId),
        ),
      );
    expect(fees).toHaveLength(1);
    expect(fees[0]!.transactionId).toBe(overdue);
    expect(
      (fees[0]!.feeDetails as { kind: string; amount: number }[]).map((f) => [f.kind, f.amount]),
    ).toEqual([
      ['StatutoryInterest', lateInvoice.fees[0].amount],
      ['FixedSum', 40],
    ]);
    const invoices = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.accountId, account));
    const byId = new Map(invoices.map((t) => [t.id, t]));
    expect(byId.get(early)).toMatchObject({
      paidStatus: 'FullyPaid',
      allocatedAmount: '475.0000',
      discountedAmount: '25.0000',
    });
    expect(byId.get(overdue)).toMatchObject({
      paidStatus: 'FullyPaid',
      allocatedAmount: '900.0000',
    });
    const [request] = await ctx.database.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.id, id));
    expect(request!.requestStatus).toBe('Completed');
    const activities = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(eq(auditActivities.resourceId, paymentId));
    expect(activities.map((a) => [a.operation, a.userName, a.status]).sort()).toEqual(
      [
        ['ChangePaymentStatus', 'Payer', 200],
        ['StartPayerPayment', 'Pat Payer', 201],
      ].sort(),
    );
    // The merchant's view of the payment shows the same.
    const detail = (await call(admin, 'GET', `payment-transactions/${paymentId}`)).json();
    expect(detail.paymentAllocations).toHaveLength(2);

    const page2 = (await pay('GET', id)).json();
    expect(page2).toMatchObject({ state: 'Completed', receipt: { paymentId } });
    // The move's web hook events were written in its own transaction.
    const events = await ctx.database.db
      .select()
      .from(webHookEvents)
      .where(eq(webHookEvents.tenantId, admin.tenantId));
    const ofPayment = events.filter((e) => [paymentId, id, overdue].includes(e.recordId));
    expect(ofPayment.map((e) => e.type).sort()).toEqual(
      ['payment-request.completed', 'payment.succeeded', 'transaction.late-fee-applied'].sort(),
    );
    const succeeded = ofPayment.find((e) => e.type === 'payment.succeeded')!;
    expect(succeeded.payload).toMatchObject({ id: paymentId, status: 'Paid' });

    const sent = await waitFor(async () => {
      const all = mailsIn(outbox).filter((mail) => mail.includes(payment!.ledgerlineReference));
      return all.length >= 2 ? all : undefined;
    });
    const to = (address: string) => sent.filter((mail) => mail.includes(`To: ${address}`));
    expect(to('finance@widgets.example')).toHaveLength(1);
    expect(to('finance@widgets.example')[0]).toContain('Subject: Payment received');
    expect(to('pat@payer.example')).toHaveLength(1);
    expect(to('pat@payer.example')[0]).toContain('Subject: Receipt: your payment of GBP');
    expect(to('pat@payer.example')[0]).toContain('Pay Page Widgets Ltd');
  });

  it('declines card 4000000000000002: NotAuthorised with the message, the request stays Open and can be paid again', async () => {
    const invoice = await insertInvoice(ctx, admin, accountId, {
      amount: '60',
      transactionDate: day(-1),
      dueDate: day(29),
    });
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '60' }, [invoice]);
    const started = (await pay('POST', `${id}/payments`, { configurationId: sandboxId })).json();
    const declined = await pay(
      'POST',
      `${id}/payments/${started.paymentId}/sandbox`,
      card(sandboxCards.declined),
    );
    expect(declined.json()).toMatchObject({
      status: 'NotAuthorised',
      outcome: 'Failed',
      message: 'Your card was declined',
      receipt: null,
    });
    expect((await pay('GET', `${id}/payments/${started.paymentId}`)).json().message).toBe(
      'Your card was declined',
    );
    // A second try on a finished payment changes nothing.
    const replay = await pay(
      'POST',
      `${id}/payments/${started.paymentId}/sandbox`,
      card(sandboxCards.succeeds),
    );
    expect(replay.json().status).toBe('NotAuthorised');
    const [request] = await ctx.database.db
      .select()
      .from(paymentRequests)
      .where(eq(paymentRequests.id, id));
    expect(request!.requestStatus).toBe('Open');
    const [row] = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, invoice));
    expect(row).toMatchObject({ paidStatus: 'Unpaid', allocatedAmount: '0.0000' });
    expect((await pay('GET', id)).json().state).toBe('Open');
    const retry = await pay('POST', `${id}/payments`, { configurationId: sandboxId });
    expect(retry.statusCode).toBe(201);
    expect(
      (
        await pay(
          'POST',
          `${id}/payments/${retry.json().paymentId}/sandbox`,
          card(sandboxCards.succeeds),
        )
      ).json().status,
    ).toBe('Paid');
  });

  it('reserves: card 4000000000003220, or any card on a Reserve request, leaves the payment Pending', async () => {
    const reserve = await insertRequest(ctx, admin, {
      accountId,
      captureType: 'Reserve',
      amountToPay: '40',
    });
    const started = (
      await pay('POST', `${reserve}/payments`, { configurationId: sandboxId })
    ).json();
    const held = (
      await pay(
        'POST',
        `${reserve}/payments/${started.paymentId}/sandbox`,
        card(sandboxCards.succeeds),
      )
    ).json();
    expect(held).toMatchObject({
      status: 'Pending',
      outcome: 'Reserved',
      receipt: { paymentId: started.paymentId },
    });
    expect((await pay('GET', reserve)).json().state).toBe('Completed');

    const immediate = await insertRequest(ctx, admin, { accountId, amountToPay: '41' });
    const other = (
      await pay('POST', `${immediate}/payments`, { configurationId: sandboxId })
    ).json();
    const reserved = (
      await pay(
        'POST',
        `${immediate}/payments/${other.paymentId}/sandbox`,
        card(sandboxCards.reserved),
      )
    ).json();
    expect(reserved).toMatchObject({ status: 'Pending', outcome: 'Reserved' });
    const [payment] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, other.paymentId));
    expect(payment).toMatchObject({ status: 'Pending', allocatedStatus: 'AutoAllocated' });
    // Staff capture it as any pending payment.
    const capture = await call(
      admin,
      'POST',
      `payment-transactions/${other.paymentId}/pending/capture`,
      { amountToCapture: 41 },
    );
    expect(capture.json()).toMatchObject({ isError: false });
  });

  it('refuses a part payment past what is left, and a second payment while one is in progress', async () => {
    const id = await insertRequest(ctx, admin, {
      accountId,
      usageType: 'Multiple',
      amountToPay: '100',
    });
    const tooMuch = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      amount: 100.01,
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount).toEqual([
      'The amount is more than is left to pay (GBP 100.00).',
    ]);
    const fraction = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      amount: 1.005,
    });
    expect(fraction.statusCode).toBe(422);
    const negative = await pay('POST', `${id}/payments`, {
      configurationId: sandboxId,
      amount: -5,
    });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().errors.amount).toEqual(['Amount must be greater than 0']);
    const first = await pay('POST', `${id}/payments`, { configurationId: sandboxId, amount: 60 });
    expect(first.statusCode).toBe(201);
    const second = await pay('POST', `${id}/payments`, { configurationId: sandboxId, amount: 10 });
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toBe(
      'Another payment for this request is in progress. Please try again in a few minutes.',
    );
    await pay(
      'POST',
      `${id}/payments/${first.json().paymentId}/sandbox`,
      card(sandboxCards.succeeds),
    );
    const past = await pay('POST', `${id}/payments`, { configurationId: sandboxId, amount: 40.01 });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.amount).toEqual([
      'The amount is more than is left to pay (GBP 40.00).',
    ]);
  });

  it('two payers paying a Single request at once: one goes ahead, the other is refused clearly', async () => {
    const invoice = await insertInvoice(ctx, admin, accountId, {
      amount: '75',
      transactionDate: day(-1),
      dueDate: day(29),
    });
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '75' }, [invoice]);
    const answers = await Promise.all([
      pay('POST', `${id}/payments`, { configurationId: sandboxId }),
      pay('POST', `${id}/payments`, { configurationId: sandboxId }),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 409]);
    const winner = answers.find((a) => a.statusCode === 201)!;
    const loser = answers.find((a) => a.statusCode === 409)!;
    expect(loser.json().detail).toBe(
      'Another payment for this request is in progress. Please try again in a few minutes.',
    );
    await pay(
      'POST',
      `${id}/payments/${winner.json().paymentId}/sandbox`,
      card(sandboxCards.succeeds),
    );
    const late = await pay('POST', `${id}/payments`, { configurationId: sandboxId });
    expect(late.json().detail).toBe('This payment request has already been paid.');
    const payments = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.paymentRequestId, id));
    expect(payments.map((p) => p.status)).toEqual(['Paid']);
  });

  it("never shows or settles a payment through another request's id", async () => {
    const mine = await insertRequest(ctx, admin, { accountId, amountToPay: '10' });
    const theirs = await insertRequest(ctx, admin, { accountId, amountToPay: '11' });
    const started = (
      await pay('POST', `${theirs}/payments`, { configurationId: sandboxId })
    ).json();
    const read = await pay('GET', `${mine}/payments/${started.paymentId}`);
    expect(read.statusCode).toBe(404);
    const settle = await pay(
      'POST',
      `${mine}/payments/${started.paymentId}/sandbox`,
      card(sandboxCards.succeeds),
    );
    expect(settle.statusCode).toBe(404);
    expect((await pay('GET', `${randomUUID()}/payments/${started.paymentId}`)).statusCode).toBe(
      404,
    );
    const [payment] = await ctx.database.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.id, started.paymentId));
    expect(payment!.status).toBe('Processing');
  });

  it('serves the company logo without sign-in', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    const id = await insertRequest(ctx, admin, { accountId });
    expect((await pay('GET', `${id}/logo`)).statusCode).toBe(404);
    const boundary = '----logo';
    await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/company-settings/logo',
      headers: admin.headers({
        'dataset-id': '1',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }),
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="imageFile"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    const logo = await pay('GET', `${id}/logo`);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(png)).toBe(true);
    expect((await pay('GET', id)).json().company.logoUrl).toBe(`/api/v0/pay/${id}/logo`);
    expect((await pay('GET', `${randomUUID()}/logo`)).statusCode).toBe(404);
  });
});

describe('rate limit', () => {
  it('answers 429 with a problem and Retry-After past the per-address limit', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_PAY_PER_MINUTE: '3' });
    try {
      const id = randomUUID();
      for (let i = 0; i < 3; i++)
        expect(
          (
            await limited.app.inject({
              method: 'GET',
              url: `/api/v0/pay/${id}`,
              remoteAddress: '10.0.0.1',
            })
          ).statusCode,
        ).toBe(200);
      const refused = await limited.app.inject({
        method: 'GET',
        url: `/api/v0/pay/${id}`,
        remoteAddress: '10.0.0.1',
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
      // Another address is not held back.
      expect(
        (
          await limited.app.inject({
            method: 'GET',
            url: `/api/v0/pay/${id}`,
            remoteAddress: '10.0.0.2',
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
