import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { providerNotifications } from '../../db/schema-pay.js';
import {
  createSandboxCheckout,
  sandboxNotificationSecret,
  sandboxNotificationTolerance,
  signSandboxNotification,
} from './sandbox.checkout.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

/**
 * Sandbox notifications carry their time in what is signed: `t=…,sha256=…`
 * over `"{t}.{body}"`, and one signed more than the tolerance (5 minutes) away from now is
 * refused, so a captured notification cannot be replayed later.
 */

const notificationKey = 'test-sandbox-notification-key-freshness';
let ctx: TestContext;
let admin: SignedIn;
let sandboxId: string;
let secret: string;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  ctx = await buildTestApp({ SANDBOX_NOTIFICATION_KEY: notificationKey });
  admin = await signIn(ctx, { tenantName: 'Fresh Notifications Ltd' });
  // The Sandbox is for demo companies only.
  await makeDemoCompany(ctx, admin);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/providers',
    headers: admin.headers({ 'dataset-id': '1' }),
    payload: {
      providerName: 'Sandbox',
      name: 'Sandbox',
      enabled: true,
      displayPriority: 1,
      isTest: true,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  sandboxId = created.json().id;
  secret = sandboxNotificationSecret(notificationKey, sandboxId)!;
}, 60_000);
afterAll(() => ctx.close());

const body = (id = `evt_${randomUUID()}`) =>
  JSON.stringify({ id, type: 'payment.paid', data: { paymentId: randomUUID(), status: 'Paid' } });

const notify = (raw: string, signature: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/webhooks/sandbox/${sandboxId}`,
    headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
    payload: raw,
  });

const stored = (eventId: string) =>
  ctx.database.db
    .select()
    .from(providerNotifications)
    .where(eq(providerNotifications.eventId, eventId));

describe('Sandbox notification freshness', () => {
  it('signs the time with the body', () => {
    const raw = body('evt_format');
    const signature = signSandboxNotification(secret, raw, 1_796_000_000);
    const hex = createHmac('sha256', secret).update(`1796000000.${raw}`).digest('hex');
    expect(signature).toBe(`t=1796000000,sha256=${hex}`);
  });

  it('accepts a notification signed now, and within the tolerance either way', async () => {
    for (const offset of [
      0,
      -(sandboxNotificationTolerance - 5),
      sandboxNotificationTolerance - 5,
    ]) {
      const id = `evt_${randomUUID()}`;
      const raw = body(id);
      const response = await notify(raw, signSandboxNotification(secret, raw, now() + offset));
      expect(response.statusCode, `${offset}: ${response.body}`).toBe(200);
      expect(await stored(id)).toHaveLength(1);
    }
  });

  it('refuses one signed more than 5 minutes ago (a replay) or ahead, and stores nothing', async () => {
    for (const offset of [
      -(sandboxNotificationTolerance + 1),
      -86_400,
      sandboxNotificationTolerance + 60,
    ]) {
      const id = `evt_${randomUUID()}`;
      const raw = body(id);
      const response = await notify(raw, signSandboxNotification(secret, raw, now() + offset));
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe('Notification timestamp outside the tolerance');
      expect(await stored(id)).toEqual([]);
    }
  });

  it('a fresh time put on an old signature does not hold; nor does the old format without a time', async () => {
    const id = `evt_${randomUUID()}`;
    const raw = body(id);
    const old = signSandboxNotification(secret, raw, now() - 3600);
    const moved = old.replace(/^t=\d+/, `t=${now()}`);
    expect((await notify(raw, moved)).body).toBe('Invalid signature');
    const untimed = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    const response = await notify(raw, untimed);
    expect(response.statusCode).toBe(401);
    expect(response.body).toBe('Invalid signature');
    expect(await stored(id)).toEqual([]);
  });

  it('the adapter reads the time from its own clock', () => {
    const clock = { now: 1_796_000_000 };
    const adapter = createSandboxCheckout({ notificationKey, now: () => clock.now });
    const raw = body();
    const input = {
      headers: { 'sandbox-signature': signSandboxNotification(secret, raw, 1_796_000_000) },
      rawBody: Buffer.from(raw),
      configuration: { id: sandboxId, isTest: true, credentials: {}, settings: {} },
      url: '',
    };
    expect((adapter.verifyNotification!(input) as { ok: boolean }).ok).toBe(true);
    clock.now += sandboxNotificationTolerance;
    expect((adapter.verifyNotification!(input) as { ok: boolean }).ok).toBe(true);
    clock.now += 1;
    expect(adapter.verifyNotification!(input)).toEqual({
      ok: false,
      statusCode: 401,
      body: 'Notification timestamp outside the tolerance',
    });
  });
});
