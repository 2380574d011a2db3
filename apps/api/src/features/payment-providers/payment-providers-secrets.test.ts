import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { secretSentinel } from '@ledgerline/contract';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { auditActivities } from '../../db/schema.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { rotateProviderSecrets } from './payment-providers.key-rotation.js';
import {
  createSecretBox,
  generateSecretsKey,
  parseSecretsKey,
} from '../../platform/secrets.js';
import { signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { setFeatureFlag, showBetaProviders } from '../../../test/feature-gates.js';
import { createTestDatabase } from '../../../test/database.js';
import { startFakeOidcProvider } from '../../../test/fake-oidc.js';

// Every line the app logs, at the most verbose level, to grep for the secrets.
let logged = '';
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged += chunk.toString();
    done();
  },
});

const key = generateSecretsKey();
const secrets = [
  'Admin-Password-7c1f',
  'Integration-Pw-93ab',
  'Client-Secret-5d2e',
  'Changed-Password-0f4a',
];
let ctx: TestContext;
let merchant: SignedIn;

beforeAll(async () => {
  const { database, dispose } = await createTestDatabase();
  const oidc = await startFakeOidcProvider();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'trace',
    PUBLIC_URL: 'http://localhost:3000',
    OIDC_ISSUER: oidc.issuer,
    OIDC_AUDIENCE: oidc.audience,
    SECRETS_KEY: key,
  });
  const app = await buildApp({
    config,
    database,
    webRoot: null,
    loggerInstance: pino({ level: 'trace' }, capture),
  });
  await app.ready();
  ctx = {
    app,
    database,
    config,
    oidc,
    close: async () => {
      await app.close();
      await oidc.close();
      await dispose();
    },
  };
  merchant = await signIn(ctx, { tenantName: 'Secrets Ltd' });
  // Opayo's integrated form needs the OpayoPi flag (spec 3 §3).
  await setFeatureFlag(ctx, 'OpayoPi', true);
  // TrueLayer is a beta kind: it needs ShowBetaPaymentProviders.
  await showBetaProviders(ctx, merchant);
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: merchant.headers({ 'dataset-id': '1' }),
    payload,
  });

describe('secrets never leave the server', () => {
  it('not in an answer, a log line or an audit activity, through adding, reading, saving and a failed save', async () => {
    const answers: string[] = [];
    const created = await call('POST', 'providers', {
      providerName: 'Opayo',
      name: 'Opayo Pi',
      enabled: true,
      displayPriority: 0,
      settings: { useTestServer: true, integrationType: 'Pi' },
      credentials: {
        vendorName: 'vendor',
        adminUser: 'admin',
        adminPassword: secrets[0],
        integrationKey: 'key',
        integrationPassword: secrets[1],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    answers.push(created.body);
    const trueLayer = await call('POST', 'providers', {
      providerName: 'TrueLayer',
      name: 'Bank transfer',
      enabled: true,
      displayPriority: 0,
      settings: {
        beneficiaryName: 'Secrets Ltd',
        beneficiaryReference: 'REF',
        remitterReference: 'Secrets',
        beneficiaryBankAccount: { accountNumber: '12345678', sortCode: '123456' },
      },
      credentials: { clientId: 'client', clientSecret: secrets[2], useSandbox: true },
    });
    expect(trueLayer.statusCode, trueLayer.body).toBe(201);
    answers.push(trueLayer.body);
    const { id } = created.json() as { id: string };
    const read = await call('GET', `providers/${id}`);
    answers.push(read.body);
    expect(read.json().credentials).toMatchObject({
      adminPassword: secretSentinel,
      integrationPassword: secretSentinel,
      integrationKey: 'key',
    });
    const saved = await call('PUT', 'providers', {
      ...read.json(),
      credentials: { ...read.json().credentials, adminPassword: secrets[3] },
    });
    expect(saved.statusCode).toBe(200);
    answers.push(saved.body);
    // A save that fails validation after a secret was typed.
    const failed = await call('PUT', 'providers', {
      ...read.json(),
      displayPriority: 500,
      credentials: { ...read.json().credentials, adminPassword: secrets[3] },
    });
    expect(failed.statusCode).toBe(400);
    answers.push(failed.body);
    answers.push((await call('GET', 'providers')).body);

    const audit = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(eq(auditActivities.tenantId, merchant.tenantId));
    expect(audit.map((a) => a.operation)).toEqual(
      expect.arrayContaining(['CreatePaymentProvider', 'UpdatePaymentProvider']),
    );
    const stored = await ctx.database.db.execute(sql`select * from payment_providers`);
    const everything = [answers.join('\n'), JSON.stringify(audit), JSON.stringify(stored)];
    expect(logged).toContain('"url":"/api/v0/providers"'); // the calls were logged
    expect(logged).toContain('Provider credentials are encrypted with SECRETS_KEY');
    for (const secret of secrets) {
      expect(logged, secret).not.toContain(secret);
      for (const text of everything) expect(text, secret).not.toContain(secret);
    }
    expect(logged).not.toContain(key);
  });
});

describe('key rotation', () => {
  it('re-seals every configuration under the new key, skips what already is, and keeps the secrets', async () => {
    const oldBox = createSecretBox(parseSecretsKey(key));
    const newBox = createSecretBox(parseSecretsKey(generateSecretsKey()));
    const before = await ctx.database.db.select().from(paymentProviders);
    expect(before.length).toBeGreaterThan(0);
    expect(await rotateProviderSecrets(ctx.database, oldBox, newBox)).toEqual({
      resealed: before.length,
      alreadyNew: 0,
    });
    const after = await ctx.database.db.select().from(paymentProviders);
    for (const row of after) {
      expect(row.credentialsSealed.split('.')[1]).toBe(newBox.keyId);
      const was = before.find((b) => b.id === row.id)!;
      expect(newBox.open(row.credentialsSealed)).toBe(oldBox.open(was.credentialsSealed));
    }
    expect(await rotateProviderSecrets(ctx.database, oldBox, newBox)).toEqual({
      resealed: 0,
      alreadyNew: before.length,
    });
  });
});
