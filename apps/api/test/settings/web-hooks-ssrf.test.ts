import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { webHookMessages as m } from '@ledgerline/contract';
import { webHookDeliveries, webHookEndpoints } from '../../src/db/schema-web-hooks.js';
import { recordWebhookEvent } from '../../src/features/web-hooks/web-hook-events.js';
import { isForbiddenAddress, postWebHook } from '../../src/features/web-hooks/safe-http.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../app.js';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.js';
import { waitFor } from '../wait.js';

// Private addresses are NOT allowed here (WEBHOOK_ALLOW_PRIVATE unset): the SSRF guard (issue 15).
let ctx: TestContext;
let admin: SignedIn;
let receiver: FakeServer;

beforeAll(async () => {
  receiver = await startFakeServer((_request, response) => {
    response.writeHead(200);
    response.end();
  });
  ctx = await buildTestApp({ WEBHOOK_RETRY_SECONDS: '1' });
  admin = await signIn(ctx, { tenantName: 'SSRF Ltd' });
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

const post = (url: string) =>
  postWebHook(
    url,
    '{}',
    { 'content-type': 'application/json' },
    { timeoutMs: 3000, allowPrivate: false },
  );

describe('private addresses', () => {
  it('knows the private, loopback, link-local and unique-local ranges, mapped forms included', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('refuses 127.0.0.1, a name that resolves to it, and 169.254.169.254 at connect time, without sending anything', async () => {
    const port = new URL(receiver.url).port;
    const byAddress = await post(`http://127.0.0.1:${port}/hook`);
    expect(byAddress).toMatchObject({
      statusCode: null,
      error: expect.stringContaining('127.0.0.1'),
    });
    const byName = await post(`http://localhost:${port}/hook`);
    expect(byName.statusCode).toBeNull();
    expect(byName.error).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), a private or reserved address/,
    );
    const metadata = await post('http://169.254.169.254/latest/meta-data/');
    expect(metadata).toMatchObject({
      statusCode: null,
      error: expect.stringContaining('169.254.169.254'),
    });
    const mapped = await post(`http://[::ffff:127.0.0.1]:${port}/hook`);
    expect(mapped.statusCode).toBeNull();
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses such URLs when an endpoint is added', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://169.254.169.254/latest',
      'https://localhost/hook',
      'https://[::1]/hook',
      'https://10.0.0.5/hook',
    ]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/web-hooks/endpoints',
        headers: admin.headers({ 'dataset-id': '1' }),
        payload: { url },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors.url, url).toEqual([m.urlPrivate]);
    }
  });

  it('records a refused attempt when a stored endpoint’s name resolves to a private address (a DNS change)', async () => {
    const port = new URL(receiver.url).port;
    const scope = { tenantId: admin.tenantId, datasetId: 1 };
    // An endpoint whose name pointed somewhere public when it was added.
    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/web-hooks/endpoints',
      headers: admin.headers({ 'dataset-id': '1' }),
      payload: { url: 'https://erp.example.com/hook' },
    });
    const id = added.json().id as string;
    await ctx.database.db
      .update(webHookEndpoints)
      .set({ url: `http://localhost:${port}/hook` })
      .where(eq(webHookEndpoints.id, id));
    await ctx.database.withTenant(admin.tenantId, (tx) =>
      recordWebhookEvent(tx, scope, {
        type: 'payment.allocated-status-changed',
        recordType: 'PaymentTransaction',
        recordId: 'ssrf',
        payload: {
          id: crypto.randomUUID(),
          allocatedStatus: 'AutoAllocated',
          previousAllocatedStatus: 'Unallocated',
        },
      }),
    );
    const failed = await waitFor(async () => {
      const [row] = await ctx.database.db
        .select()
        .from(webHookDeliveries)
        .where(eq(webHookDeliveries.endpointId, id));
      return row?.status === 'Failed' ? row : undefined;
    });
    expect(failed).toMatchObject({ attempts: 2, statusCode: null });
    expect(failed.error).toMatch(/localhost resolves to .*a private or reserved address/);
    expect(receiver.requests).toHaveLength(0);
  });
});
