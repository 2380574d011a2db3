import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { webHookMessages as m } from '@ledgerline/contract';
import { webHookDeliveries, webHookEndpoints } from '../../db/schema-web-hooks.js';
import { recordWebhookEvent } from './web-hook-events.repository.js';
import { isForbiddenAddress, postWebHook } from './safe-http.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { startFakeServer, type FakeServer } from '../../../test/fakes/fake-server.js';
import { waitFor } from '../../../test/wait.js';

// Private addresses are NOT allowed here (WEBHOOK_ALLOW_PRIVATE unset): the SSRF guard.
let ctx: TestContext;
let admin: SignedIn;
let receiver: FakeServer;
/** An app whose PUBLIC_URL is a name: its own host is refused. */
let own: TestContext;
let ownAdmin: SignedIn;

beforeAll(async () => {
  receiver = await startFakeServer((_request, response) => {
    response.writeHead(200);
    response.end();
  });
  ctx = await buildTestApp({ WEBHOOK_RETRY_SECONDS: '1' });
  admin = await signIn(ctx, { tenantName: 'SSRF Ltd' });
  own = await buildTestApp({ PUBLIC_URL: 'https://ledgerline.test' });
  ownAdmin = await signIn(own, { tenantName: 'Own Host Ltd' });
}, 120_000);
afterAll(async () => {
  await own.close();
  await ctx.close();
  await receiver.close();
});

const post = (url: string, options: Partial<Parameters<typeof postWebHook>[3]> = {}) =>
  postWebHook(
    url,
    '{}',
    { 'content-type': 'application/json' },
    {
      timeoutMs: 3000,
      allowPrivate: false,
      // The receiver's port, so these tests are about addresses; the port test narrows it.
      allowedPorts: [443, 80, Number(new URL(receiver.url).port)],
      ...options,
    },
  );

const addEndpoint = (url: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v0/web-hooks/endpoints',
    headers: admin.headers({ 'dataset-id': '1' }),
    payload: { url },
  });

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

  // IPv4 written in IPv6's other forms.
  it('knows private IPv4 however IPv6 writes it: mapped, compatible, translated, NAT64, 6to4, Teredo', () => {
    for (const address of [
      '0:0:0:0:0:ffff:127.0.0.1',
      '0000:0000:0000:0000:0000:ffff:7f00:0001',
      '::FFFF:7F00:1',
      '::ffff:0:127.0.0.1',
      '::127.0.0.1',
      '::7f00:1',
      '::a00:1',
      '::169.254.169.254',
      '64:ff9b::10.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::808:808',
      '2002:7f00:1::',
      '2002:a00:1::1',
      '2002:c0a8:101:0:0:0:0:1',
      '2002:a9fe:a9fe::',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'not an address',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('sends only to ports 443 and 80 and the ones configured, checked before connecting', async () => {
    const port = Number(new URL(receiver.url).port);
    const refused = await post(`http://127.0.0.1:${port}/hook`, {
      allowPrivate: true,
      allowedPorts: [443, 80],
    });
    expect(refused).toMatchObject({
      statusCode: null,
      error: `Port ${port} is not allowed for web hooks.`,
    });
    expect(receiver.requests).toHaveLength(0);
    const allowed = await post(`http://127.0.0.1:${port}/hook`, {
      allowPrivate: true,
      allowedPorts: [443, 80, port],
    });
    expect(allowed).toMatchObject({ statusCode: 200, error: null });
    receiver.requests.length = 0;
    for (const url of [
      'https://erp.example.com:8443/hook',
      'https://erp.example.com:22/',
      'https://erp.example.com:8080/',
    ]) {
      const response = await addEndpoint(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors.url, url).toEqual([m.urlPort]);
    }
    expect((await addEndpoint('https://erp.example.com:443/hook')).statusCode).toBe(201);
  });

  it('refuses this server’s own host (PUBLIC_URL) and, at connect time, its addresses', async () => {
    for (const url of [
      'https://ledgerline.test/api/v0/webhooks/stripe/x',
      'https://LEDGERLINE.test./hook',
    ]) {
      const response = await own.app.inject({
        method: 'POST',
        url: '/api/v0/web-hooks/endpoints',
        headers: ownAdmin.headers({ 'dataset-id': '1' }),
        payload: { url },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors.url, url).toEqual([m.urlOwnHost]);
    }
    // Its public address, however written; checked before any connection is made.
    for (const url of [
      'https://203.0.114.7/hook',
      'https://[::ffff:203.0.114.7]/hook',
      'http://203.0.114.7/x',
    ]) {
      const hairpin = await post(url, { ownAddresses: async () => ['203.0.114.7'] });
      expect(hairpin.statusCode, url).toBeNull();
      expect(hairpin.error, url).toMatch(
        /^(203\.0\.114\.7|::ffff:cb00:7207) is this server’s own address; web hooks are not sent there\.$/,
      );
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses the mapped and compatible forms of a private address in a URL', async () => {
    const port = Number(new URL(receiver.url).port);
    for (const host of [
      '[::ffff:7f00:1]',
      '[::127.0.0.1]',
      '[64:ff9b::a00:1]',
      '[2002:7f00:1::1]',
    ]) {
      const result = await post(`http://${host}:${port}/hook`, { allowedPorts: [port] });
      expect(result.statusCode, host).toBeNull();
      expect(result.error, host).toMatch(/a private or reserved address/);
      expect((await addEndpoint(`https://${host}/hook`)).json().errors?.url, host).toEqual([
        m.urlPrivate,
      ]);
    }
    expect(receiver.requests).toHaveLength(0);
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
