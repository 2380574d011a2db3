import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { webHookEventTypes, webHookMessages as m } from '@ledgerline/contract';
import { buildApp } from '../../app.js';
import { paymentRequests, paymentTransactions } from '../../db/schema-receivables.js';
import {
  webHookDeliveries,
  webHookEndpoints,
  webHookEvents,
} from '../../db/schema-web-hooks.js';
import { users } from '../../db/schema.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { createPaymentRequestExpiry } from '../payment-requests/payment-requests.expiry.js';
import { createPaymentRequestsRepository } from '../payment-requests/payment-requests.repository.js';
import { createPaymentRequestsService } from '../payment-requests/payment-requests.service.js';
import { recordWebhookEvent } from './web-hook-events.repository.js';
import { createJobs } from '../../platform/jobs.js';
import { createSvixClient, svixAppUid } from './svix-client.js';
import { startFakeSvix, type FakeSvix } from '../../../test/fakes/fake-svix.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { startFakeServer, type FakeRequest, type FakeServer } from '../../../test/fakes/fake-server.js';
import { waitFor } from '../../../test/wait.js';

let ctx: TestContext;
let admin: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let receiver: FakeServer;
/** What the receiver answers next, first in first out; 200 when empty. */
const answers: number[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-hooks-'));

beforeAll(async () => {
  receiver = await startFakeServer((_request, response) => {
    response.writeHead(answers.shift() ?? 200, { 'content-type': 'text/plain' });
    response.end('ok');
  });
  ctx = await buildTestApp({
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SECONDS: '1,1,1',
  });
  admin = await signIn(ctx, { tenantName: 'Hooks Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Hooks Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Hooks Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  await ctx.database.withTenant(admin.tenantId, (tx) =>
    generateReceivables(
      tx,
      { tenantId: admin.tenantId, datasetId: 1 },
      // Pending payments come only from the Reserve request; 200 payments give a dozen or so.
      { accounts: 3, transactions: 4, paymentRequests: 2, paymentTransactions: 200, banks: 1 },
    ),
  );
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (
  who: SignedIn,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  datasetId = '1',
) =>
  ctx.app.inject({
    method,
    url,
    headers: who.headers({ 'dataset-id': datasetId }),
    ...(payload ? { payload } : {}),
  });

const hooksOf = (server: FakeServer, type?: string) =>
  server.requests
    .map((request) => ({
      request,
      body: JSON.parse(request.body) as {
        id: string;
        type: string;
        datasetId: number;
        tenantId: string;
        data: Record<string, unknown>;
      },
    }))
    .filter(({ body }) => !type || body.type === type);

async function addEndpoint(who: SignedIn, body: object) {
  const response = await call(who, 'POST', '/api/v0/web-hooks/endpoints', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; url: string };
}

const usedPending = new Set<string>();
async function pendingPayment() {
  const rows = await ctx.database.withTenant(admin.tenantId, (tx) =>
    tx
      .select()
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.tenantId, admin.tenantId),
          eq(paymentTransactions.status, 'Pending'),
          eq(paymentTransactions.currency, 'GBP'),
        ),
      ),
  );
  const payment = rows.find(
    (row) =>
      Number(row.totalAmount) > 20 &&
      !row.totalAmount.endsWith('.9900') &&
      !usedPending.has(row.id),
  )!;
  usedPending.add(payment.id);
  return payment;
}

/** A Paid payment of the tenant whose allocated status is none of `not` (so a change to them is one). */
async function paidPayment(context: TestContext, tenantId: string, not: string[]) {
  const [payment] = await context.database.withTenant(tenantId, (tx) =>
    tx
      .select()
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.tenantId, tenantId),
          eq(paymentTransactions.status, 'Paid'),
          notInArray(paymentTransactions.allocatedStatus, not),
        ),
      )
      .limit(1),
  );
  return payment!;
}

describe('endpoints', () => {
  it('adds, reads, changes and deletes an endpoint; the secret is whsec_, shown on demand and rotatable', async () => {
    const added = await addEndpoint(admin, {
      url: 'https://erp.example.com/hooks',
      description: 'ERP',
      eventTypes: ['payment.captured'],
    });
    expect(added).toMatchObject({
      url: 'https://erp.example.com/hooks',
      description: 'ERP',
      eventTypes: ['payment.captured'],
      disabled: false,
      failingSince: null,
    });
    const list = (await call(admin, 'GET', '/api/v0/web-hooks/endpoints')).json();
    expect(list.items.map((e: { id: string }) => e.id)).toContain(added.id);
    expect(JSON.stringify(list)).not.toContain('whsec_');

    const secret = (
      await call(admin, 'GET', `/api/v0/web-hooks/endpoints/${added.id}/secret`)
    ).json().secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const rotated = await call(
      admin,
      'POST',
      `/api/v0/web-hooks/endpoints/${added.id}/secret/rotate`,
    );
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(secret);
    expect(
      (await call(admin, 'GET', `/api/v0/web-hooks/endpoints/${added.id}/secret`)).json().secret,
    ).toBe(rotated.json().secret);

    const changed = await call(admin, 'PUT', `/api/v0/web-hooks/endpoints/${added.id}`, {
      url: 'https://erp.example.com/v2',
      description: '',
      eventTypes: [],
      disabled: true,
    });
    expect(changed.json()).toMatchObject({
      url: 'https://erp.example.com/v2',
      description: null,
      eventTypes: [],
      disabled: true,
      disabledReason: 'Switched off by a user.',
    });
    const deleted = await call(admin, 'DELETE', `/api/v0/web-hooks/endpoints/${added.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await call(admin, 'GET', `/api/v0/web-hooks/endpoints/${added.id}`)).statusCode).toBe(
      404,
    );
    const audit = await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx.execute(
        sql`select operation from audit_activities where tenant_id = ${admin.tenantId} and resource_id = ${added.id} order by id`,
      ),
    );
    expect(
      (audit as unknown as { rows: { operation: string }[] }).rows.map((r) => r.operation),
    ).toEqual([
      'CreateWebHookEndpoint',
      'RotateWebHookSecret',
      'UpdateWebHookEndpoint',
      'DeleteWebHookEndpoint',
    ]);
  });

  it('refuses a bad URL, a plain http address that is not this computer, and an unknown event type with the messages', async () => {
    const bad = await call(admin, 'POST', '/api/v0/web-hooks/endpoints', { url: 'not a url' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.url).toEqual([m.urlInvalid]);
    const empty = await call(admin, 'POST', '/api/v0/web-hooks/endpoints', { url: '' });
    expect(empty.json().errors.url).toEqual([m.urlRequired]);
    const http = await call(admin, 'POST', '/api/v0/web-hooks/endpoints', {
      url: 'http://erp.example.com/hooks',
    });
    expect(http.statusCode).toBe(400);
    expect(http.json().errors.url).toEqual([m.urlHttps]);
    const long = await call(admin, 'POST', '/api/v0/web-hooks/endpoints', {
      url: `https://erp.example.com/${'a'.repeat(2000)}`,
    });
    expect(long.json().errors.url).toEqual([m.urlTooLong]);
    const type = await call(admin, 'POST', '/api/v0/web-hooks/endpoints', {
      url: 'https://erp.example.com/',
      eventTypes: ['payment.teleported'],
    });
    expect(type.statusCode).toBe(400);
    expect(JSON.stringify(type.json().errors)).toContain(m.eventType);
  });

  it('needs ConfigureSystemSettings, and another tenant’s endpoint is simply not found', async () => {
    const added = await addEndpoint(admin, { url: 'https://erp.example.com/private' });
    expect((await call(viewer, 'GET', '/api/v0/web-hooks/endpoints')).statusCode).toBe(403);
    expect(
      (await call(viewer, 'POST', '/api/v0/web-hooks/endpoints', { url: 'https://x.example.com/' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(viewer, 'GET', '/api/v0/integrations/svix/dashboard-access')).statusCode,
    ).toBe(403);
    for (const [method, url, body] of [
      ['GET', `/api/v0/web-hooks/endpoints/${added.id}`],
      ['PUT', `/api/v0/web-hooks/endpoints/${added.id}`, { url: 'https://evil.example.com/' }],
      ['GET', `/api/v0/web-hooks/endpoints/${added.id}/secret`],
      ['POST', `/api/v0/web-hooks/endpoints/${added.id}/secret/rotate`],
      ['GET', `/api/v0/web-hooks/endpoints/${added.id}/deliveries`],
      ['DELETE', `/api/v0/web-hooks/endpoints/${added.id}`],
    ] as const) {
      const response = await call(rival, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(rival, 'GET', '/api/v0/web-hooks/endpoints')).json().items).toEqual([]);
    await call(admin, 'DELETE', `/api/v0/web-hooks/endpoints/${added.id}`);
  });

  it('documents every event type in the OpenAPI webhooks section, its refs resolving to components', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v0/openapi.json' })).json();
    expect(Object.keys(document.webhooks).sort()).toEqual([...webHookEventTypes].sort());
    const captured = document.webhooks['payment.captured'].post;
    expect(captured.requestBody.content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/PaymentTransaction',
    });
    expect(captured.parameters.map((p: { name: string }) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const refs = [
      ...JSON.stringify(document.webhooks).matchAll(/"#\/components\/schemas\/([^"]+)"/g),
    ].map((r) => r[1]!);
    for (const ref of refs) expect(document.components.schemas[ref], ref).toBeDefined();
  });

  it('answers the embedded mode from dashboard-access when Svix is not configured', async () => {
    const access = await call(admin, 'GET', '/api/v0/integrations/svix/dashboard-access');
    expect(access.json()).toEqual({ mode: 'Embedded', url: null, frameable: false });
  });
});

// The endpoints grid's search box, on the server.
describe('GET web-hooks/endpoints?search=', () => {
  it('finds endpoints by part of their URL or description, and only the company’s own', async () => {
    const mine = await signIn(ctx, { tenantName: 'Searchable Hooks Ltd' });
    const theirs = await signIn(ctx, { tenantName: 'Other Searchable Hooks Ltd' });
    await addEndpoint(mine, { url: 'https://quokka.example.com/hooks', description: 'Ledger' });
    await addEndpoint(mine, { url: 'https://erp.example.com/in', description: 'Quokka ERP' });
    await addEndpoint(mine, { url: 'https://wombat.example.com/hooks', description: 'Reports' });
    await addEndpoint(theirs, { url: 'https://quokka.example.com/theirs', description: 'Theirs' });
    const search = async (who: SignedIn, words: string) => {
      const response = await call(
        who,
        'GET',
        `/api/v0/web-hooks/endpoints?search=${encodeURIComponent(words)}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().items as { url: string }[]).map((e) => e.url).sort();
    };
    expect(await search(mine, 'QUOKKA')).toEqual([
      'https://erp.example.com/in',
      'https://quokka.example.com/hooks',
    ]);
    expect(await search(mine, 'nothing-like-it')).toEqual([]);
    expect(await search(theirs, 'quokka')).toEqual(['https://quokka.example.com/theirs']);
    const long = await call(mine, 'GET', `/api/v0/web-hooks/endpoints?search=${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.search).toBeDefined();
  });
});

describe('embedded delivery', () => {
  let endpoint: { id: string };
  let secret: string;

  beforeAll(async () => {
    endpoint = await addEndpoint(admin, {
      url: `${receiver.url}/hooks`,
      description: 'Local receiver',
    });
    secret = (await call(admin, 'GET', `/api/v0/web-hooks/endpoints/${endpoint.id}/secret`)).json()
      .secret;
  });

  it('delivers a captured payment once to a real receiver, signed so that standardwebhooks verifies it', async () => {
    const payment = await pendingPayment();
    const capture = await call(
      admin,
      'POST',
      `/api/v0/payment-transactions/${payment.id}/pending/capture`,
      { amountToCapture: 12.5 },
    );
    expect(capture.json()).toMatchObject({ isError: false });
    const [hook] = await waitFor(async () => {
      const found = hooksOf(receiver, 'payment.captured').filter(
        ({ body }) => body.data.id === payment.id,
      );
      return found.length > 0 ? found : undefined;
    });
    const { request, body } = hook!;
    // Verifies with the endpoint's secret, as any Standard Webhooks or Svix library would.
    const verified = new Webhook(secret).verify(
      request.body,
      request.headers as Record<string, string>,
    ) as typeof body;
    expect(verified.id).toBe(request.headers['webhook-id']);
    expect(body).toMatchObject({
      type: 'payment.captured',
      tenantId: admin.tenantId,
      datasetId: 1,
    });
    expect(body.data).toMatchObject({
      id: payment.id,
      status: 'Paid',
      totalAmount: 12.5,
      currency: 'GBP',
    });
    // The payload is the payment as GET payment-transactions/{id} answers it.
    const api = (await call(admin, 'GET', `/api/v0/payment-transactions/${payment.id}`)).json();
    expect(body.data).toEqual(api);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');

    await new Promise((resolve) => setTimeout(resolve, 1500)); // nothing more arrives
    expect(
      hooksOf(receiver, 'payment.captured').filter(({ body: b }) => b.data.id === payment.id),
    ).toHaveLength(1);

    const log = (
      await call(admin, 'GET', `/api/v0/web-hooks/endpoints/${endpoint.id}/deliveries`)
    ).json();
    expect(log.items[0]).toMatchObject({
      eventId: body.id,
      eventType: 'payment.captured',
      status: 'Succeeded',
      statusCode: 200,
      attempts: 1,
      nextAttemptOn: null,
      error: null,
    });
    expect(log.items[0].durationMs).toBeGreaterThanOrEqual(0);

    // Resend: the same event (same webhook-id) once more, a second attempt in the log.
    const resent = await call(
      admin,
      'POST',
      `/api/v0/web-hooks/deliveries/${log.items[0].id}/resend`,
    );
    expect(resent.statusCode).toBe(200);
    await waitFor(async () =>
      hooksOf(receiver).filter(({ body: b }) => b.id === body.id).length === 2 ? true : undefined,
    );
    const again = await waitFor(async () => {
      const item = (
        await call(admin, 'GET', `/api/v0/web-hooks/endpoints/${endpoint.id}/deliveries`)
      ).json().items[0];
      return item.attempts === 2 && item.status === 'Succeeded' ? item : undefined;
    });
    expect(again).toMatchObject({ id: log.items[0].id, statusCode: 200 });
  });

  it('tries again when the receiver answers 500 twice, and the third attempt delivers', async () => {
    answers.push(500, 500);
    const payment = await pendingPayment();
    const cancel = await call(
      admin,
      'POST',
      `/api/v0/payment-transactions/${payment.id}/pending/cancel`,
      { note: 'no stock' },
    );
    expect(cancel.json()).toMatchObject({ isError: false });
    const delivered = await waitFor(async () => {
      const item = (
        await call(admin, 'GET', `/api/v0/web-hooks/endpoints/${endpoint.id}/deliveries`)
      )
        .json()
        .items.find(
          (d: { recordId: string; eventType: string }) =>
            d.recordId === payment.id && d.eventType === 'payment.cancelled',
        );
      return item?.status === 'Succeeded' ? item : undefined;
    });
    expect(delivered).toMatchObject({ attempts: 3, statusCode: 200 });
    const sent = hooksOf(receiver, 'payment.cancelled').filter(
      ({ body }) => body.data.id === payment.id,
    );
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map(({ request }) => request.headers['webhook-id'])).size).toBe(1);
    expect(sent[2]!.body.data).toMatchObject({ status: 'Cancelled' });
  });

  it('sends allocated-status changes, one at a time and by import, in order per payment', async () => {
    const payment = await paidPayment(ctx, admin.tenantId, ['ManuallyAllocated']);
    const id = payment.id;
    for (const status of ['ManuallyAllocated', 'Unallocated', 'ManuallyAllocated'] as const) {
      const response = await call(
        admin,
        'PATCH',
        `/api/v0/payment-transactions/${id}/allocated-status`,
        { status },
      );
      expect(response.statusCode, response.body).toBe(200);
    }
    // The same status again is no change: no event.
    await call(admin, 'PATCH', `/api/v0/payment-transactions/${id}/allocated-status`, {
      status: 'ManuallyAllocated',
    });
    const boundary = '----hooks';
    const file = `PaymentTransactionId,AllocatedStatus\n${id},AutoAllocated\n`;
    const imported = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/payment-transactions/allocated-status/import',
      headers: admin.headers({
        'dataset-id': '1',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }),
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`,
    });
    expect(imported.json()).toMatchObject({ importedCount: 1 });
    const changes = await waitFor(async () => {
      const found = hooksOf(receiver, 'payment.allocated-status-changed').filter(
        ({ body }) => body.data.id === id,
      );
      return found.length === 4 ? found : undefined;
    });
    expect(
      changes.map(({ body }) => [body.data.previousAllocatedStatus, body.data.allocatedStatus]),
    ).toEqual([
      [payment.allocatedStatus, 'ManuallyAllocated'],
      ['ManuallyAllocated', 'Unallocated'],
      ['Unallocated', 'ManuallyAllocated'],
      ['ManuallyAllocated', 'AutoAllocated'],
    ]);
  });

  it('holds a later event of a record until the earlier one is delivered', async () => {
    const payment = await paidPayment(ctx, admin.tenantId, ['NotApplicable', 'AutoAllocated']);
    const id = payment.id;
    answers.push(503);
    await call(admin, 'PATCH', `/api/v0/payment-transactions/${id}/allocated-status`, {
      status: 'NotApplicable',
    });
    await call(admin, 'PATCH', `/api/v0/payment-transactions/${id}/allocated-status`, {
      status: 'Error',
    });
    const seen = await waitFor(async () => {
      const found = hooksOf(receiver, 'payment.allocated-status-changed').filter(
        ({ body }) => body.data.id === id,
      );
      return found.length === 3 ? found : undefined;
    });
    // the first (refused), the first again, then the second
    expect(seen.map(({ body }) => body.data.allocatedStatus)).toEqual([
      'NotApplicable',
      'NotApplicable',
      'Error',
    ]);
  });

  it('sends payment-request.created with the request as the API answers it, only to endpoints that take the type', async () => {
    const filtered = await addEndpoint(admin, {
      url: `${receiver.url}/requests-only`,
      eventTypes: ['payment-request.created'],
    });
    const account = (await call(admin, 'GET', '/api/v0/accounts?itemsPerPage=1')).json().items[0];
    const created = await call(admin, 'POST', '/api/v0/payment-requests', {
      requestType: 'Account',
      accountId: account.id,
      currency: 'GBP',
      amountToPay: 42,
      captureType: 'Immediate',
    });
    expect(created.statusCode, created.body).toBe(201);
    const request = created.json();
    const both = await waitFor(async () => {
      const found = hooksOf(receiver, 'payment-request.created').filter(
        ({ body }) => body.data.id === request.id,
      );
      return found.length === 2 ? found : undefined;
    });
    expect(both.map(({ request: r }) => r.path).sort()).toEqual(['/hooks', '/requests-only']);
    expect(both[0]!.body.data).toEqual(request);
    const onlyRequests = receiver.requests
      .filter((r) => r.path === '/requests-only')
      .map((r) => JSON.parse(r.body).type);
    expect(new Set(onlyRequests)).toEqual(new Set(['payment-request.created']));
    await call(admin, 'DELETE', `/api/v0/web-hooks/endpoints/${filtered.id}`);
  });

  it('expires a payment request past its valid-until time and sends payment-request.expired', async () => {
    const [open] = await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx
        .select()
        .from(paymentRequests)
        .where(
          and(
            eq(paymentRequests.tenantId, admin.tenantId),
            eq(paymentRequests.requestStatus, 'Open'),
          ),
        )
        .limit(1),
    );
    await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx
        .update(paymentRequests)
        .set({ validUntil: new Date(Date.now() - 60_000) })
        .where(and(eq(paymentRequests.tenantId, admin.tenantId), eq(paymentRequests.id, open!.id))),
    );
    // The sweep the app schedules every five minutes, run now; its commit nudges the delivery.
    const expiry = createPaymentRequestExpiry({
      database: ctx.database,
      jobs: createJobs(ctx.database, ctx.app.log),
      service: createPaymentRequestsService({
        repository: createPaymentRequestsRepository(),
        publicUrl: ctx.config.publicUrl,
      }),
      log: ctx.app.log,
      afterExpired: async () => {
        // Any later commit that records an event nudges the drain, which sends everything due.
        await ctx.database.withTenant(admin.tenantId, (tx) =>
          recordWebhookEvent(
            tx,
            { tenantId: admin.tenantId, datasetId: 1 },
            {
              type: 'payment.allocated-status-changed',
              recordType: 'Nudge',
              recordId: 'nudge',
              payload: {
                id: open!.id,
                allocatedStatus: 'AutoAllocated',
                previousAllocatedStatus: 'AutoAllocated',
              },
            },
          ),
        );
      },
    });
    expect(await expiry.expire()).toBeGreaterThanOrEqual(1);
    const [hook] = await waitFor(async () => {
      const found = hooksOf(receiver, 'payment-request.expired').filter(
        ({ body }) => body.data.id === open!.id,
      );
      return found.length > 0 ? found : undefined;
    });
    expect(hook!.body.data).toMatchObject({ id: open!.id, requestStatus: 'Expired' });
    expect(await expiry.expire()).toBe(0);
  });

  it('disables an endpoint that fails for the configured time and mails the administrators', async () => {
    const failing = await startFakeServer((_request, response) => {
      response.writeHead(500);
      response.end();
    });
    const app = await buildApp({
      config: { ...ctx.config, WEBHOOK_DISABLE_AFTER_HOURS: 0, WEBHOOK_RETRY_SECONDS: '1' },
      database: ctx.database,
      webRoot: null,
    });
    // One process delivers (the test app stops its worker while this one runs).
    await ctx.app.close();
    await app.ready();
    try {
      const row = await ctx.database.withTenant(admin.tenantId, async (tx) => {
        const [made] = await tx
          .insert(webHookEndpoints)
          .values({
            tenantId: admin.tenantId,
            datasetId: 1,
            id: crypto.randomUUID(),
            url: `${failing.url}/down`,
            secret: (await tx.select().from(webHookEndpoints).limit(1))[0]!.secret,
          })
          .returning();
        await recordWebhookEvent(
          tx,
          { tenantId: admin.tenantId, datasetId: 1 },
          {
            type: 'payment.allocated-status-changed',
            recordType: 'PaymentTransaction',
            recordId: 'disable-test',
            payload: {
              id: made!.id,
              allocatedStatus: 'AutoAllocated',
              previousAllocatedStatus: 'Unallocated',
            },
          },
        );
        return made!;
      });
      const disabled = await waitFor(async () => {
        const [state] = await ctx.database.db
          .select()
          .from(webHookEndpoints)
          .where(eq(webHookEndpoints.id, row.id));
        return state?.disabled ? state : undefined;
      });
      expect(disabled.disabledReason).toBe('Every attempt failed for 0 days.');
      const mail = await waitFor(async () => {
        const folder = join(dataDir, 'mail');
        const files = existsSync(folder)
          ? readdirSync(folder).map((f) => readFileSync(join(folder, f), 'utf8'))
          : [];
        return files.find((text) => text.includes('Web hook endpoint disabled')) ?? undefined;
      });
      expect(mail).toContain(`To: ${admin.email}`);
      expect(mail.replace(/=\n/g, '')).toContain(`${failing.url}/down`);
    } finally {
      await app.close();
      await failing.close();
    }
  });
});

describe('after a restart', () => {
  it('delivers an event committed just before the process stopped, once, from the next process', async () => {
    const restartReceiver = await startFakeServer((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    const { createTestDatabase } = await import('../../../test/database.js');
    const { database, dispose } = await createTestDatabase();
    const config = { ...ctx.config, WEBHOOK_ALLOW_PRIVATE: true };
    try {
      const { createTenant } = await import('../tenants/tenants.service.js');
      const { tenantId } = await createTenant(database, {
        name: 'Restart Ltd',
        adminEmail: 'restart@example.com',
        adminName: 'R',
      });
      const first = await buildApp({ config, database, webRoot: null });
      await first.ready();
      const secrets = (await import('../../platform/secrets.js')).createSecretBox(
        Buffer.from(config.SECRETS_KEY!, 'base64'),
      );
      const scope = { tenantId, datasetId: 1 };
      await database.withTenant(tenantId, async (tx) => {
        await tx.insert(webHookEndpoints).values({
          ...scope,
          id: crypto.randomUUID(),
          url: `${restartReceiver.url}/r`,
          secret: secrets.seal(`whsec_${Buffer.alloc(32, 7).toString('base64')}`),
        });
      });
      // Committed, then the process stops before its job runs (the worker polls once a second).
      const eventId = await database.withTenant(tenantId, (tx) =>
        recordWebhookEvent(tx, scope, {
          type: 'payment.allocated-status-changed',
          recordType: 'PaymentTransaction',
          recordId: 'restart',
          payload: {
            id: crypto.randomUUID(),
            allocatedStatus: 'AutoAllocated',
            previousAllocatedStatus: 'Unallocated',
          },
        }),
      );
      await first.close();
      // And one committed while no process runs at all (a crash before the nudge).
      const secondId = await database.withTenant(tenantId, (tx) =>
        recordWebhookEvent(tx, scope, {
          type: 'payment.allocated-status-changed',
          recordType: 'PaymentTransaction',
          recordId: 'restart-2',
          payload: {
            id: crypto.randomUUID(),
            allocatedStatus: 'AutoAllocated',
            previousAllocatedStatus: 'Unallocated',
          },
        }),
      );
      const second = await buildApp({ config, database, webRoot: null });
      await second.ready();
      try {
        await waitFor(async () => (restartReceiver.requests.length >= 2 ? true : undefined));
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const ids = restartReceiver.requests.map((r: FakeRequest) => r.headers['webhook-id']);
        expect(ids.sort()).toEqual([eventId, secondId].sort());
        const states = await database.db
          .select({ status: webHookDeliveries.status })
          .from(webHookDeliveries);
        expect(states.map((s) => s.status)).toEqual(['Succeeded', 'Succeeded']);
        const events = await database.db
          .select({ dispatchedOn: webHookEvents.dispatchedOn })
          .from(webHookEvents);
        expect(events.every((e) => e.dispatchedOn !== null)).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      await dispose();
      await restartReceiver.close();
    }
  });
});

describe('delivery through Svix', () => {
  let svix: FakeSvix;
  let svixCtx: TestContext;
  let merchant: SignedIn;

  beforeAll(async () => {
    svix = await startFakeSvix();
    svixCtx = await buildTestApp({
      SVIX_TOKEN: svix.token,
      SVIX_SERVER_URL: svix.url,
      WEBHOOK_RETRY_SECONDS: '1,1',
    });
    merchant = await signIn(svixCtx, { tenantName: 'Svix Ltd' });
    await svixCtx.database.withTenant(merchant.tenantId, (tx) =>
      generateReceivables(
        tx,
        { tenantId: merchant.tenantId, datasetId: 1 },
        { accounts: 3, transactions: 4, paymentRequests: 2, paymentTransactions: 200, banks: 1 },
      ),
    );
  });
  afterAll(async () => {
    await svixCtx.close();
    await svix.close();
  });

  const svixCall = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    svixCtx.app.inject({
      method,
      url,
      headers: merchant.headers({ 'dataset-id': '1' }),
      ...(payload ? { payload } : {}),
    });

  it('gives the app portal of the company’s Svix application, made on first use; self-hosted, so not frameable', async () => {
    const access = await svixCall('GET', '/api/v0/integrations/svix/dashboard-access');
    expect(access.statusCode, access.body).toBe(200);
    expect(access.json()).toMatchObject({ mode: 'Svix', frameable: false });
    expect(access.json().url).toMatch(new RegExp(`^${svix.url}/app-portal/login#key=appsk_`));
    const uid = svixAppUid({ tenantId: merchant.tenantId, datasetId: 1 });
    expect(svix.applications.get(uid)).toMatchObject({ uid, name: expect.any(String) });
    const portal = svix.requests.find((r) => r.path.startsWith('/api/v1/auth/app-portal-access/'));
    expect(portal?.path).toBe(`/api/v1/auth/app-portal-access/${uid}/`);
    expect(portal?.headers.authorization).toBe(`Bearer ${svix.token}`);
    // Endpoints live in Svix then.
    const add = await svixCall('POST', '/api/v0/web-hooks/endpoints', {
      url: 'https://erp.example.com/',
    });
    expect(add.statusCode).toBe(409);
    expect(add.json().detail).toBe(m.managedBySvix);
  });

  it('sends each event as a Svix message with the event id as eventId, again after an outage, and never twice', async () => {
    const payment = await paidPayment(svixCtx, merchant.tenantId, ['NotApplicable']);
    svix.failNext(1, 500);
    const changed = await svixCall(
      'PATCH',
      `/api/v0/payment-transactions/${payment.id}/allocated-status`,
      { status: 'NotApplicable' },
    );
    expect(changed.statusCode).toBe(200);
    const uid = svixAppUid({ tenantId: merchant.tenantId, datasetId: 1 });
    const [message] = await waitFor(async () => {
      const found = (svix.messages.get(uid) ?? []).filter(
        (msg) => (msg.payload as { data: { id: string } }).data.id === payment.id,
      );
      return found.length > 0 ? found : undefined;
    });
    expect(message).toMatchObject({
      eventType: 'payment.allocated-status-changed',
      payload: {
        id: message!.eventId,
        type: 'payment.allocated-status-changed',
        tenantId: merchant.tenantId,
        datasetId: 1,
        data: {
          id: payment.id,
          allocatedStatus: 'NotApplicable',
          previousAllocatedStatus: payment.allocatedStatus,
        },
      },
    });
    // The delivery row is written once Svix's answer is back: Svix may hold the message first.
    const delivery = await waitFor(async () => {
      const [row] = await svixCtx.database.db
        .select()
        .from(webHookDeliveries)
        .where(eq(webHookDeliveries.eventId, message!.eventId!));
      return row?.status === 'Pending' ? undefined : row;
    });
    expect(delivery).toMatchObject({
      endpointId: null,
      status: 'Succeeded',
      attempts: 2,
      statusCode: 202,
    });

    // Svix refuses the same eventId: a second send is a duplicate, stored once.
    const client = createSvixClient({ token: svix.token, serverUrl: svix.url, timeoutMs: 5000 });
    expect(
      await client.createMessage(uid, {
        eventType: message!.eventType,
        eventId: message!.eventId!,
        payload: message!.payload,
      }),
    ).toEqual({ statusCode: 409, duplicate: true });
    expect(
      (svix.messages.get(uid) ?? []).filter((msg) => msg.eventId === message!.eventId),
    ).toHaveLength(1);
    // A wrong token is refused.
    const stranger = createSvixClient({
      token: 'testsk_wrong',
      serverUrl: svix.url,
      timeoutMs: 5000,
    });
    await expect(stranger.appPortalAccess(uid)).rejects.toMatchObject({ statusCode: 401 });
  });
});
