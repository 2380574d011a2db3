import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { loadConfig } from '../config.js';
import { auditActivities } from '../db/schema.js';
import { createTenant } from '../features/tenants/tenants.service.js';
import { buildTestApp, type TestContext } from '../../test/app.js';

/**
 * TRUST_PROXY names how many proxies (or which addresses) stand in front of the
 * server, so the client address is the one the last trusted proxy saw, never one a client wrote
 * into X-Forwarded-For itself.
 */
const proxy = '10.0.0.2';
const client = '203.0.113.7';

/** A call through the proxy: whatever the client wrote, then the address the proxy saw. */
function throughProxy(
  ctx: TestContext,
  forged: string,
  init: { method: 'GET' | 'POST'; url: string; payload?: object },
) {
  return ctx.app.inject({
    ...init,
    remoteAddress: proxy,
    headers: { 'x-forwarded-for': `${forged}, ${client}` },
  });
}

const forgedAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;

async function lastLoginAudit(ctx: TestContext, tenantId: string) {
  const [row] = await ctx.database.db
    .select({ ipAddress: auditActivities.ipAddress })
    .from(auditActivities)
    .where(and(eq(auditActivities.tenantId, tenantId), eq(auditActivities.operation, 'Login')))
    .orderBy(desc(auditActivities.timestamp))
    .limit(1);
  return row?.ipAddress;
}

describe.each([
  ['1', 'one hop (the documented HAProxy set-up)'],
  ['true', '`true`, kept as one hop'],
  [proxy, "the proxy's address"],
  ['10.0.0.0/8', "the proxies' network"],
])('TRUST_PROXY=%s, %s', (trustProxy) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await buildTestApp({
      TRUST_PROXY: trustProxy,
      RATE_LIMIT_LOGIN_PER_MINUTE: '3',
      RATE_LIMIT_PAY_PER_MINUTE: '3',
    });
  });
  afterAll(() => ctx?.close());

  it('keeps the per-IP sign-in limit whatever X-Forwarded-For the client writes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await throughProxy(ctx, forgedAddress(), {
        method: 'POST',
        url: '/api/v0/login',
        payload: { accessToken: 'not-a-token' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('keeps the per-IP payer page limit whatever X-Forwarded-For the client writes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await throughProxy(ctx, forgedAddress(), {
        method: 'GET',
        url: `/api/v0/pay/${randomUUID()}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
  });

  it("records the address the proxy saw in the audit, not the client's own claim", async () => {
    const email = `audit-${randomUUID().slice(0, 8)}@example.com`;
    const { tenantId, userId } = await createTenant(ctx.database, {
      name: `Audit ${email}`,
      adminEmail: email,
      adminName: `Audit ${email.slice(0, 14)}`,
    });
    const token = await ctx.oidc.token({ sub: `sub-${userId}`, email });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: token },
      remoteAddress: proxy,
      // Another client than the one the limits above held back.
      headers: { 'x-forwarded-for': `1.2.3.4, 203.0.113.8` },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await lastLoginAudit(ctx, tenantId)).toBe('203.0.113.8');
  });
});

describe('TRUST_PROXY with addresses', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ TRUST_PROXY: `${proxy},192.0.2.0/24` });
  });
  afterAll(() => ctx?.close());

  it('ignores X-Forwarded-For from a caller that is not one of the proxies', async () => {
    const email = `direct-${randomUUID().slice(0, 8)}@example.com`;
    const { tenantId, userId } = await createTenant(ctx.database, {
      name: `Direct ${email}`,
      adminEmail: email,
      adminName: `Direct ${email.slice(0, 14)}`,
    });
    const token = await ctx.oidc.token({ sub: `sub-${userId}`, email });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: token },
      remoteAddress: '198.51.100.20',
      headers: { 'x-forwarded-for': client },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await lastLoginAudit(ctx, tenantId)).toBe('198.51.100.20');
  });
});

describe('TRUST_PROXY=false (the default)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({});
  });
  afterAll(() => ctx?.close());

  it('takes the connecting address and ignores X-Forwarded-For', async () => {
    const email = `plain-${randomUUID().slice(0, 8)}@example.com`;
    const { tenantId, userId } = await createTenant(ctx.database, {
      name: `Plain ${email}`,
      adminEmail: email,
      adminName: `Plain ${email.slice(0, 14)}`,
    });
    const token = await ctx.oidc.token({ sub: `sub-${userId}`, email });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: token },
      remoteAddress: proxy,
      headers: { 'x-forwarded-for': client },
    });
    expect(await lastLoginAudit(ctx, tenantId)).toBe(proxy);
  });
});

describe('TRUST_PROXY values', () => {
  it.each([
    ['false', false],
    ['0', false],
    ['no', false],
    ['true', 1],
    ['yes', 1],
    ['1', 1],
    ['2', 2],
    [' 10.0.0.1 , 10.1.0.0/16,::1 ', ['10.0.0.1', '10.1.0.0/16', '::1']],
  ])('reads %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['banana', '-1', '10.0.0.300', '10.0.0.0/33', '1.5', ''])('refuses %j', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
      /TRUST_PROXY: .*false, a number of proxies in front of the server, or their addresses/,
    );
  });
});
