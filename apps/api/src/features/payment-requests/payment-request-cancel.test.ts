import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { paymentRequestMessages as m } from '@ledgerline/contract';
import { auditActivities } from '../../db/schema.js';
import { webHookEvents } from '../../db/schema-web-hooks.js';
import { paymentRequests } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller, makeViewer } from '../../../test/fixtures/money-rules.js';
import { insertAccount, insertRequest } from '../../../test/fixtures/pay.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

/** Staff cancel an Open payment request; its link then says it was cancelled. */
let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let sandboxId: string;
let accountId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-request-cancel-'));

const cancel = (who: SignedIn, id: string) => call(who, 'POST', `payment-requests/${id}/cancel`);
const statusOf = async (id: string) => {
  const [row] = await ctx.database.db
    .select()
    .from(paymentRequests)
    .where(eq(paymentRequests.id, id));
  return row!.requestStatus;
};

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir, RATE_LIMIT_PAY_PER_MINUTE: '100000' });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Cancel Requests Ltd' });
  await makeDemoCompany(ctx, admin);
  accountId = await insertAccount(ctx, admin);
  const provider = await call(admin, 'POST', 'providers', {
    providerName: 'Sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
    name: 'Card (test)',
  });
  expect(provider.statusCode, provider.body).toBe(201);
  sandboxId = provider.json().id;
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST payment-requests/{id}/cancel', () => {
  it('cancels an Open request with its audit activity and web hook event; the link says so', async () => {
    const id = await insertRequest(ctx, admin, { accountId });
    const response = await cancel(admin, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id, requestStatus: 'Cancelled' });
    expect(await statusOf(id)).toBe('Cancelled');
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(
        and(
          eq(auditActivities.operation, 'CancelPaymentRequest'),
          eq(auditActivities.resourceId, id),
        ),
      );
    expect(activity).toMatchObject({ resourceType: 'PaymentRequest', status: 200 });
    const events = await ctx.database.db
      .select()
      .from(webHookEvents)
      .where(and(eq(webHookEvents.tenantId, admin.tenantId), eq(webHookEvents.recordId, id)));
    expect(events.map((event) => event.type)).toEqual(['payment-request.cancelled']);

    const page = await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${id}` });
    expect(page.json()).toMatchObject({ state: 'Cancelled', methods: [] });
    const start = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${id}/payments`,
      payload: { configurationId: sandboxId },
    });
    expect(start.statusCode).toBe(409);
    expect(start.json().detail).toBe('This payment request was cancelled.');
  });

  it.each(['Cancelled', 'Completed', 'PartCompleted', 'Expired', 'Pending'])(
    'answers 409 for a %s request and changes nothing',
    async (requestStatus) => {
      const id = await insertRequest(ctx, admin, { accountId, requestStatus });
      const response = await cancel(admin, id);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        detail: m.notCancellable,
        errorCode: 'paymentRequestNotCancellable',
      });
      expect(await statusOf(id)).toBe(requestStatus);
    },
  );

  it('answers 409 while a payment of the request is being made', async () => {
    const id = await insertRequest(ctx, admin, { accountId });
    const started = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${id}/payments`,
      payload: { configurationId: sandboxId },
    });
    expect(started.statusCode, started.body).toBe(201);
    const response = await cancel(admin, id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      detail: m.paymentInProgress,
      errorCode: 'paymentRequestPaymentInProgress',
    });
    expect(await statusOf(id)).toBe('Open');
  });

  it('needs EditPaymentRequest, and another company’s request is not found', async () => {
    const id = await insertRequest(ctx, admin, { accountId });
    const viewer = await signIn(ctx, { tenantName: 'Cancel Viewers Ltd' });
    await makeDemoCompany(ctx, viewer);
    await makeViewer(ctx, viewer);
    const viewerAccount = await insertAccount(ctx, viewer);
    const theirs = await insertRequest(ctx, viewer, { accountId: viewerAccount });
    expect((await cancel(viewer, theirs)).statusCode).toBe(403);
    expect(await statusOf(theirs)).toBe('Open');
    const other = await signIn(ctx, { tenantName: 'Other Cancel Ltd' });
    await makeDemoCompany(ctx, other);
    const foreign = await cancel(other, id);
    expect(foreign.statusCode).toBe(404);
    expect(await statusOf(id)).toBe('Open');
    expect(
      (await call(admin, 'POST', `payment-requests/0190d7a2-0000-7000-8000-000000000000/cancel`))
        .statusCode,
    ).toBe(404);
  });
});
