import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretSentinel } from '@ledgerline/contract';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { setFeatureFlag } from '../../../test/feature-gates.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';

/**
 * spec 3 §4 "UK provider with integration type Server first registers the IP address and stops
 * saving if that fails", done by the server's save (any client), with the address found through
 * OPAYO_IP_LOOKUP_URL when OPAYO_SERVER_IP is unset.
 */
let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let opayo: FakeOpayo;

type Method = 'GET' | 'POST' | 'PUT';
function call(who: SignedIn, method: Method, url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    payload,
  });
}

const server = (name: string, adminPassword: string, extra: object = {}) => ({
  providerName: 'Opayo',
  name,
  enabled: true,
  displayPriority: 0,
  settings: { useTestServer: true, integrationType: 'Server', vendorTxCodeType: 'PaymentRequest' },
  credentials: { vendorName: 'ipvendor', adminUser: 'admin', adminPassword },
  ...extra,
});

async function namedCount(who: SignedIn, name: string) {
  const response = await call(
    who,
    'GET',
    `providers?filter=${encodeURIComponent(`name eq ${name}`)}`,
  );
  return (response.json() as { totalItems: number }).totalItems;
}

beforeAll(async () => {
  opayo = await startFakeOpayo();
  opayo.vendors.set('ipvendor', new Map([['admin', { password: 'Ip-Admin-1', admin: true }]]));
  ctx = await buildTestApp({
    OPAYO_TEST_URL: opayo.url,
    OPAYO_LIVE_URL: opayo.url,
    // No OPAYO_SERVER_IP: the address is asked of a "what is my IP" service (the fake's).
    OPAYO_IP_LOOKUP_URL: `${opayo.url}/whatismyip`,
  });
  merchant = await signIn(ctx, { tenantName: 'Opayo IP Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Opayo IP Ltd' });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await opayo.close();
});

describe('an Opayo Server save registers the IP address first', () => {
  it('the lookup service down: the save stops with what to set, nothing saved', async () => {
    opayo.outgoingIp = null;
    const response = await call(merchant, 'POST', 'providers', server('Lookup down', 'Ip-Admin-1'));
    opayo.outgoingIp = '203.0.113.7';
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errorCode: 'OpayoIpNotRegistered',
      detail: `Ledgerline could not find the IP address Opayo sees it from: ${opayo.url}/whatismyip answered HTTP 503. Ask the operator to set OPAYO_SERVER_IP to that address.`,
    });
    expect(opayo.registeredIps).toHaveLength(0);
    expect(await namedCount(merchant, 'Lookup down')).toBe(0);
  });

  it('add: the address the lookup answers is registered, zero-padded, then saved', async () => {
    const response = await call(
      merchant,
      'POST',
      'providers',
      server('Opayo server', 'Ip-Admin-1'),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(opayo.registeredIps).toEqual([
      { vendor: 'ipvendor', address: '203.000.113.007', mask: '255.255.255.255' },
    ]);
  });

  it('add with a wrong admin password: spec 3 §8 0010 message, nothing saved', async () => {
    const response = await call(merchant, 'POST', 'providers', server('Wrong password', 'nope'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: 'The admin password is wrong.',
      errorCode: 'OpayoIpNotRegistered',
    });
    expect(await namedCount(merchant, 'Wrong password')).toBe(0);
  });

  it('add with a user without admin rights: the 0011 message', async () => {
    opayo.vendors.get('ipvendor')!.set('clerk', { password: 'Clerk-1', admin: false });
    const response = await call(merchant, 'POST', 'providers', {
      ...server('Clerk', 'Clerk-1'),
      credentials: { vendorName: 'ipvendor', adminUser: 'clerk', adminPassword: 'Clerk-1' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('The admin user needs administrator privileges.');
    expect(await namedCount(merchant, 'Clerk')).toBe(0);
  });

  it('edit: the stored password (sent as the sentinel) registers; a wrong new one stops the save', async () => {
    const [row] = (
      await call(merchant, 'GET', `providers?filter=${encodeURIComponent('name eq Opayo server')}`)
    ).json().items as { id: string }[];
    const stored = (await call(merchant, 'GET', `providers/${row!.id}`)).json();
    expect(stored.credentials.adminPassword).toBe(secretSentinel);
    const before = opayo.registeredIps.length;
    const kept = await call(merchant, 'PUT', 'providers', { ...stored, description: 'Kept' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(opayo.registeredIps).toHaveLength(before + 1);

    const wrong = await call(merchant, 'PUT', 'providers', {
      ...stored,
      description: 'Not saved',
      credentials: { ...stored.credentials, adminPassword: 'wrong' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe('The admin password is wrong.');
    const after = (await call(merchant, 'GET', `providers/${row!.id}`)).json();
    expect(after.description).toBe('Kept');
    expect(opayo.registeredIps).toHaveLength(before + 1);
  });

  it("another tenant's configuration: 404, and its stored password is never used", async () => {
    const [row] = (
      await call(merchant, 'GET', `providers?filter=${encodeURIComponent('name eq Opayo server')}`)
    ).json().items as { id: string }[];
    const before = opayo.registeredIps.length;
    const response = await call(rival, 'PUT', 'providers', {
      ...server('Opayo server', secretSentinel),
      id: row!.id,
    });
    expect(response.statusCode).toBe(404);
    expect(opayo.registeredIps).toHaveLength(before);
  });

  it('Pi registers nothing', async () => {
    await setFeatureFlag(ctx, 'OpayoPi', true);
    const before = opayo.registeredIps.length;
    const response = await call(merchant, 'POST', 'providers', {
      ...server('Opayo Pi', 'Ip-Admin-1'),
      settings: { useTestServer: true, integrationType: 'Pi', vendorTxCodeType: 'PaymentRequest' },
      credentials: {
        vendorName: 'ipvendor',
        adminUser: 'admin',
        adminPassword: 'Ip-Admin-1',
        integrationKey: 'key',
        integrationPassword: 'secret',
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(opayo.registeredIps).toHaveLength(before);
  });
});
