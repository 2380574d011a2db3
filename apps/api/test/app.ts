import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { buildApp, type BuildAppOptions } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import type { Database } from '../src/db/client.js';
import { createTenant } from '../src/features/tenants/tenants.service.js';
import { createTestDatabase } from './database.js';
import { startFakeOidcProvider, type FakeOidcProvider } from './fake-oidc.js';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  oidc: FakeOidcProvider;
  close(): Promise<void>;
}

/** The whole app on a fresh database, signing in through an external-style OIDC provider. */
export async function buildTestApp(
  env: Record<string, string> = {},
  databaseOptions: Parameters<typeof createTestDatabase>[0] = {},
  /** More of buildApp's options (the payer page's checkout adapters, a mailer standing in for SMTP). */
  appOptions: Pick<BuildAppOptions, 'checkouts' | 'mailer' | 'loggerInstance'> = {},
): Promise<TestContext> {
  const { database, dispose } = await createTestDatabase(databaseOptions);
  const oidc = await startFakeOidcProvider();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...(process.env.TEST_LOG ? { LOG_LEVEL: process.env.TEST_LOG } : {}),
    PUBLIC_URL: 'http://localhost:3000',
    OIDC_ISSUER: oidc.issuer,
    OIDC_AUDIENCE: oidc.audience,
    // A fresh key per test app, so no test writes a key file into the data folder.
    SECRETS_KEY: randomBytes(32).toString('base64'),
    ...env,
  });
  const app = await buildApp({ config, database, webRoot: null, ...appOptions });
  await app.ready();
  return {
    app,
    database,
    config,
    oidc,
    async close() {
      await app.close();
      await oidc.close();
      await dispose();
    },
  };
}

export interface SignedIn {
  tenantId: string;
  userId: string;
  email: string;
  cookie: string;
  xsrf: string;
  /** Headers for a call as this user; unsafe methods get the XSRF header. */
  headers(extra?: Record<string, string>): Record<string, string>;
}

/** Someone calling the API: a signed-in user (cookie + XSRF) or an ERP connector (access key). */
export interface Caller {
  headers(extra?: Record<string, string>): Record<string, string>;
}

/** A caller with an access key, as an ERP connector calls. */
export const byKey = (key: string): Caller => ({
  headers: (extra = {}) => ({ authorization: `Bearer ${key}`, ...extra }),
});

export function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const c of response.cookies) jar[c.name] = c.value;
  return jar;
}

/** Creates a tenant (or uses the given one) with a user, and signs that user in. */
export async function signIn(
  ctx: TestContext,
  input: { tenantName?: string; email?: string } = {},
): Promise<SignedIn> {
  const email = input.email ?? `admin-${randomUUID().slice(0, 8)}@example.com`;
  const { tenantId, userId } = await createTenant(ctx.database, {
    name: input.tenantName ?? `Tenant ${email}`,
    adminEmail: email,
    adminName: `Admin ${email.slice(0, 14)}`,
  });
  const token = await ctx.oidc.token({ sub: `sub-${userId}`, email });
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/login',
    payload: { accessToken: token },
  });
  if (response.statusCode !== 204)
    throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const jar = cookiesOf(response);
  const cookie = Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  const xsrf = jar['XSRF-TOKEN']!;
  return {
    tenantId,
    userId,
    email,
    cookie,
    xsrf,
    headers: (extra = {}) => ({ cookie, 'x-xsrf-token': xsrf, ...extra }),
  };
}

/** The invitation link of a mail's text (an external provider's: `/api/v0/invitations/accept?token=…`). */
export function invitationLinkIn(text: string): URL {
  const link = /https?:\/\/\S+\/api\/v0\/invitations\/accept\?\S+/.exec(text);
  if (!link) throw new Error(`no invitation link in ${text}`);
  return new URL(link[0]);
}

/**
 * Opens an invitation link as the invited user's browser does: the proof cookie it leaves is what
 * the first sign-in brings to POST /login.
 */
export async function openInvitation(ctx: TestContext, link: URL) {
  const response = await ctx.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
  const proof = response.cookies.find((c) => c.name.endsWith('ledgerline_invitation'));
  return { response, cookie: proof ? `${proof.name}=${proof.value}` : '' };
}
