import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gt, sql } from 'drizzle-orm';
import { sandboxCards, type Dataset, type PaymentProviderSummary } from '@ledgerline/contract';
import { paymentRequests, paymentTransactions } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { waitFor } from '../../../test/wait.js';

/*
 * A new demo company's generated payments all named the Sandbox provider, but no
 * provider was configured, so its payment links said 'This company cannot take payments online
 * yet.'. A demo company now comes with the Sandbox as its default, and its payments name it.
 */

let ctx: TestContext;
let admin: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await signIn(ctx, { tenantName: 'Demo Newcomer Ltd' });
}, 60_000);
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const inCompany = (id: number, method: Method, url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: admin.headers({ 'dataset-id': String(id) }),
    ...(payload ? { payload } : {}),
  });
const pay = (method: Method, url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });

async function waitForActive(id: number): Promise<Dataset> {
  return waitFor(async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/data-sets/${id}`,
      headers: admin.headers(),
    });
    const dataset = response.json() as Dataset;
    return dataset.status === 'Active' ? dataset : undefined;
  }, 60_000);
}

let hostCounter = 0;
/** A company registered as the Companies screen registers one, once its job made it Active. */
async function newCompany(demo: boolean): Promise<number> {
  hostCounter++;
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/data-sets',
    headers: admin.headers(),
    payload: {
      name: `Newcomer ${hostCounter}`,
      hostSystemName: 'Sage200Pro',
      hostId: `NEW-${hostCounter}`,
      customHostId: `NEW-${hostCounter}`,
      hostDemoSystem: demo,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = (response.json() as Dataset).id;
  await waitForActive(id);
  return id;
}

async function providersOf(id: number): Promise<PaymentProviderSummary[]> {
  const response = await inCompany(id, 'GET', 'providers');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
}

/** The payment provider ids the company's payments name, and the provider names. */
async function paymentProvidersNamed(id: number) {
  return ctx.database.withTenant(admin.tenantId, (tx) =>
    tx
      .select({
        id: paymentTransactions.paymentProviderId,
        name: paymentTransactions.paymentProviderName,
        payments: sql<number>`count(*)::int`,
      })
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.tenantId, admin.tenantId),
          eq(paymentTransactions.datasetId, id),
        ),
      )
      .groupBy(paymentTransactions.paymentProviderId, paymentTransactions.paymentProviderName),
  );
}

/** A generated request a payer can still pay. */
async function openRequestOf(id: number): Promise<string> {
  const [request] = await ctx.database.withTenant(admin.tenantId, (tx) =>
    tx
      .select({ id: paymentRequests.id })
      .from(paymentRequests)
      .where(
        and(
          eq(paymentRequests.tenantId, admin.tenantId),
          eq(paymentRequests.datasetId, id),
          eq(paymentRequests.requestStatus, 'Open'),
          eq(paymentRequests.requestType, 'Transaction'),
          gt(paymentRequests.validUntil, new Date(Date.now() + 3_600_000)),
        ),
      )
      .limit(1),
  );
  expect(request, 'a generated Open request').toBeDefined();
  return request!.id;
}

describe('a new demo company', () => {
  let demo: number;
  let sandbox: PaymentProviderSummary;

  beforeAll(async () => {
    demo = await newCompany(true);
  }, 90_000);

  it('comes with the Sandbox configured: enabled, test, its default, Card', async () => {
    const providers = await providersOf(demo);
    expect(providers).toHaveLength(1);
    sandbox = providers[0]!;
    expect(sandbox).toMatchObject({
      providerName: 'Sandbox',
      name: 'Sandbox',
      enabled: true,
      isTest: true,
      isDefault: true,
      paymentMethodConfigurations: [
        { paymentMethodType: 'Card', enabled: true, filterGroup: null },
      ],
    });
    const byDefault = await inCompany(demo, 'GET', 'providers/default');
    expect(byDefault.json()).toEqual({ paymentProviderId: sandbox.id });
  });

  it('has its generated payments name that configuration', async () => {
    const named = await paymentProvidersNamed(demo);
    expect(named).toHaveLength(1);
    expect(named[0]).toMatchObject({ id: sandbox.id, name: 'Sandbox' });
    expect(named[0]!.payments).toBeGreaterThan(0);
  });

  it('takes a payment at once: the link offers the Sandbox, a test card pays and allocates it', async () => {
    const request = await openRequestOf(demo);
    const page = await pay('GET', request);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().methods).toEqual([
      {
        configurationId: sandbox.id,
        providerName: 'Sandbox',
        displayName: 'Sandbox',
        group: 'Card',
        isDefault: true,
        isTest: true,
      },
    ]);
    const started = await pay('POST', `${request}/payments`, {
      configurationId: sandbox.id,
      payer: { firstNames: 'Nia', surname: 'Newcomer', emailAddress: 'nia@newcomer.example' },
    });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().next).toEqual({ kind: 'sandbox' });
    const { paymentId } = started.json();
    const paid = await pay('POST', `${request}/payments/${paymentId}/sandbox`, {
      cardholderName: 'Nia Newcomer',
      cardNumber: sandboxCards.succeeds,
      expiry: '12/30',
      cvc: '123',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'Paid', outcome: 'Succeeded' });
    const payment = await inCompany(demo, 'GET', `payment-transactions/${paymentId}`);
    expect(payment.json()).toMatchObject({
      status: 'Paid',
      allocatedStatus: 'AutoAllocated',
      paymentProviderId: sandbox.id,
    });
  });

  it('captures a generated reservation through its Sandbox configuration', async () => {
    const [pending] = await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx
        .select({ id: paymentTransactions.id, totalAmount: paymentTransactions.totalAmount })
        .from(paymentTransactions)
        .where(
          and(
            eq(paymentTransactions.tenantId, admin.tenantId),
            eq(paymentTransactions.datasetId, demo),
            eq(paymentTransactions.status, 'Pending'),
            sql`${paymentTransactions.totalAmount}::text not like '%.99'`,
          ),
        )
        .limit(1),
    );
    expect(pending, 'a generated Pending payment').toBeDefined();
    const captured = await inCompany(
      demo,
      'POST',
      `payment-transactions/${pending!.id}/pending/capture`,
      {
        amountToCapture: Number(pending!.totalAmount),
      },
    );
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json()).toMatchObject({
      isError: false,
      errorMessage: null,
      paymentTransaction: { id: pending!.id, status: 'Paid', paymentProviderId: sandbox.id },
    });
  });

  it('keeps its one Sandbox through a reset, and its payments still name it', async () => {
    const reset = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/data-sets/${demo}/reset`,
      headers: admin.headers(),
    });
    expect(reset.statusCode, reset.body).toBe(202);
    await waitForActive(demo);
    const providers = await providersOf(demo);
    expect(providers.map((p) => [p.id, p.isDefault])).toEqual([[sandbox.id, true]]);
    const named = await paymentProvidersNamed(demo);
    expect(named.map((n) => n.id)).toEqual([sandbox.id]);
  }, 90_000);

  it('gets the Sandbox back as its default when a reset finds none', async () => {
    expect((await inCompany(demo, 'DELETE', `providers/${sandbox.id}`)).statusCode).toBe(204);
    expect((await inCompany(demo, 'GET', 'providers/default')).json()).toEqual({
      paymentProviderId: null,
    });
    const reset = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/data-sets/${demo}/reset`,
      headers: admin.headers(),
    });
    expect(reset.statusCode, reset.body).toBe(202);
    await waitFor(async () => {
      const providers = await providersOf(demo);
      return providers.length === 1 ? providers : undefined;
    }, 60_000);
    await waitForActive(demo);
    const [again] = await providersOf(demo);
    expect(again).toMatchObject({ providerName: 'Sandbox', enabled: true, isDefault: true });
    expect((await paymentProvidersNamed(demo)).map((n) => n.id)).toEqual([again!.id]);
  }, 90_000);
});

describe('a new production company', () => {
  it('comes with no provider: the Sandbox moves no money', async () => {
    const production = await newCompany(false);
    expect(await providersOf(production)).toEqual([]);
    expect(await paymentProvidersNamed(production)).toEqual([]);
  }, 90_000);
});
