import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { notificationMessages as m } from '@ledgerline/contract';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { users } from '../../db/schema.js';
import { generateReceivables } from '../datasets/demo-data.js';
import {
  createPaymentNotifications,
  notificationJob,
} from './notifications.mail.js';
import type { MailMessage } from '../../platform/mail.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { waitFor } from '../../../test/wait.js';

let ctx: TestContext;
let admin: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-notify-'));
const outbox = join(dataDir, 'mail');

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir });
  admin = await signIn(ctx, { tenantName: 'Notify Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Notify Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Notify Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  await ctx.database.withTenant(admin.tenantId, (tx) =>
    generateReceivables(
      tx,
      { tenantId: admin.tenantId, datasetId: 1 },
      // Pending payments come only from the Reserve request (request 2 of 2), paid in instalments
      // of which 1 in 12 is Pending: 200 payments give the three Pending ones these tests capture.
      { accounts: 3, transactions: 4, paymentRequests: 2, paymentTransactions: 200, banks: 1 },
    ),
  );
});
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (
  who: SignedIn,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
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

/** The .eml files of the mail drop, quoted-printable soft breaks and '=' undone so texts read whole. */
const mails = () =>
  existsSync(outbox)
    ? readdirSync(outbox)
        .sort()
        .map((file) =>
          readFileSync(join(outbox, file), 'utf8').replace(/=\n/g, '').replace(/=3D/g, '='),
        )
    : [];

describe('notification recipients and switches', () => {
  it('starts with no recipient, the admin offered as a Ledgerline user, and every customer notification on', async () => {
    const list = (await call(admin, 'GET', '/api/v0/notifications/users')).json();
    expect(list.items).toEqual([]);
    expect(list.availableUsers).toEqual([
      expect.objectContaining({ id: admin.userId, emailAddress: admin.email }),
    ]);
    const customer = (await call(admin, 'GET', '/api/v0/notifications/customer')).json();
    expect(customer.notificationSettings).toEqual([
      { notificationUserId: null, notificationName: 'PaymentPending', isEnabled: true },
      { notificationUserId: null, notificationName: 'PaymentPendingCancelled', isEnabled: true },
      { notificationUserId: null, notificationName: 'PaymentPendingCompleted', isEnabled: true },
    ]);
  });

  it('adds an e-mail recipient trimmed, with every notification off', async () => {
    const response = await call(admin, 'POST', '/api/v0/notifications/users', {
      type: 'EmailAddress',
      emailAddress: '  finance@notify.example  ',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      type: 'EmailAddress',
      emailAddress: 'finance@notify.example',
      displayName: 'finance@notify.example',
    });
    expect(
      response.json().notificationSettings.every((s: { isEnabled: boolean }) => !s.isEnabled),
    ).toBe(true);
    const again = await call(admin, 'POST', '/api/v0/notifications/users', {
      type: 'EmailAddress',
      emailAddress: 'FINANCE@notify.example',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(m.alreadyAdded);
  });

  it.each([
    [{ type: 'EmailAddress', emailAddress: '   ' }, 'emailAddress', m.emailRequired],
    [{ type: 'EmailAddress', emailAddress: 'not-an-address' }, 'emailAddress', m.emailInvalid],
    [
      { type: 'EmailAddress', emailAddress: `${'a'.repeat(250)}@x.example` },
      'emailAddress',
      m.emailTooLong,
    ],
    [{ emailAddress: 'a@b.example' }, 'type', m.typeRequired],
    [{ type: 'LedgerlineUser' }, 'userId', m.userRequired],
  ])('refuses %j with its message', async (payload, field, message) => {
    const response = await call(admin, 'POST', '/api/v0/notifications/users', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it("adds a Ledgerline user, refuses another tenant's user, and no longer offers the added one", async () => {
    const foreign = await call(admin, 'POST', '/api/v0/notifications/users', {
      type: 'LedgerlineUser',
      userId: rival.userId,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.userId).toEqual([m.userNotFound]);
    const added = await call(admin, 'POST', '/api/v0/notifications/users', {
      type: 'LedgerlineUser',
      userId: admin.userId,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ userId: admin.userId, emailAddress: admin.email });
    expect((await call(admin, 'GET', '/api/v0/notifications/users')).json().availableUsers).toEqual(
      [],
    );
  });

  it('switches notifications per recipient and refuses a customer notification there', async () => {
    const { items } = (await call(admin, 'GET', '/api/v0/notifications/users')).json();
    for (const recipient of items) {
      const response = await call(admin, 'PUT', '/api/v0/notifications/users', {
        id: recipient.id,
        notificationSettings: [{ notificationName: 'TenantPaymentSuccessful', isEnabled: true }],
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().notificationSettings).toContainEqual({
        notificationUserId: recipient.id,
        notificationName: 'TenantPaymentSuccessful',
        isEnabled: true,
      });
    }
    const wrong = await call(admin, 'PUT', '/api/v0/notifications/users', {
      id: items[0].id,
      notificationSettings: [{ notificationName: 'PaymentPending', isEnabled: true }],
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.notificationSettings).toEqual([m.notificationName]);
  });

  it('needs ConfigureSystemSettings for every call', async () => {
    const { items } = (await call(admin, 'GET', '/api/v0/notifications/users')).json();
    expect((await call(viewer, 'GET', '/api/v0/notifications/users')).statusCode).toBe(403);
    expect((await call(viewer, 'GET', '/api/v0/notifications/customer')).statusCode).toBe(403);
    expect(
      (
        await call(viewer, 'POST', '/api/v0/notifications/users', {
          type: 'EmailAddress',
          emailAddress: 'a@b.example',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call(viewer, 'PUT', '/api/v0/notifications/customer', { notificationSettings: [] }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(viewer, 'DELETE', `/api/v0/notifications/users?id=${items[0].id}`)).statusCode,
    ).toBe(403);
  });

  it("answers 404 for another tenant's recipient and company, and leaves them alone", async () => {
    const { items } = (await call(admin, 'GET', '/api/v0/notifications/users')).json();
    const id = items[0].id;
    expect(
      (await call(rival, 'PUT', '/api/v0/notifications/users', { id, notificationSettings: [] }))
        .statusCode,
    ).toBe(404);
    expect((await call(rival, 'DELETE', `/api/v0/notifications/users?id=${id}`)).statusCode).toBe(
      404,
    );
    expect((await call(rival, 'GET', '/api/v0/notifications/users')).json().items).toEqual([]);
    expect(
      (await call(admin, 'GET', '/api/v0/notifications/users', undefined, '2')).statusCode,
    ).toBe(404);
    expect((await call(admin, 'GET', '/api/v0/notifications/users')).json().items).toHaveLength(2);
  });
});

async function pendingPayment(email: string | null) {
  return ctx.database.withTenant(admin.tenantId, async (tx) => {
    const rows = await tx
      .select()
      .from(paymentTransactions)
      .where(
        and(
          eq(paymentTransactions.tenantId, admin.tenantId),
          eq(paymentTransactions.status, 'Pending'),
          eq(paymentTransactions.currency, 'GBP'),
        ),
      );
    const payment = rows.find(
      (row) => Number(row.totalAmount) > 20 && !row.totalAmount.endsWith('.9900'),
    )!;
    await tx
      .update(paymentTransactions)
      .set({ customerDetails: { ...(payment.customerDetails as object), emailAddress: email } })
      .where(
        and(
          eq(paymentTransactions.tenantId, admin.tenantId),
          eq(paymentTransactions.id, payment.id),
        ),
      );
    return payment;
  });
}

/**
 * Waits until every notification job sent so far has run: none is still created, retrying or
 * active. The capture and cancel calls send their jobs before they answer, and a job writes its
 * mails before it completes, so after this no mail of theirs is still on its way.
 */
const notificationsSettled = () =>
  waitFor(async () => {
    const { rows } = await ctx.database.raw.query(
      `select count(*)::int as waiting from pgboss.job
        where name = $1 and state in ('created', 'retry', 'active')`,
      [notificationJob],
    );
    return rows[0]!.waiting === 0;
  });

describe('payment mails', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    'base64',
  );

  it('mails the recipients and the payer once when a pending payment is captured, with the logo and the amount', async () => {
    const boundary = '----logo';
    const upload = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/company-settings/logo',
      headers: admin.headers({
        'dataset-id': '1',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }),
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="imageFile"; filename="notify.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode).toBe(200);
    await call(admin, 'PUT', '/api/v0/company-settings', {
      companyDetails: {
        name: 'Notify Widgets Ltd',
        website: 'https://notify.example',
        mainAddress: {
          firstNames: 'Nia',
          surname: 'Jones',
          email: 'hello@notify.example',
          address1: '2 Mail Road',
          city: 'Leeds',
          state: 'England',
          postCode: 'LS1 1AA',
          country: 'United Kingdom',
        },
      },
    });
    const payment = await pendingPayment('payer@customer.example');
    const capture = await call(
      admin,
      'POST',
      `/api/v0/payment-transactions/${payment.id}/pending/capture`,
      { amountToCapture: 12.5 },
    );
    expect(capture.json()).toMatchObject({ isError: false });

    const sent = await waitFor(async () => (mails().length >= 3 ? mails() : undefined));
    await notificationsSettled(); // nothing else arrives
    expect(mails()).toHaveLength(3);
    const to = (address: string) => sent.filter((mail) => mail.includes(`To: ${address}`));
    expect(to('finance@notify.example')).toHaveLength(1);
    expect(to(admin.email)).toHaveLength(1);
    expect(to('payer@customer.example')).toHaveLength(1);
    for (const mail of sent) {
      expect(mail).toContain('Content-Type: text/plain');
      expect(mail).toContain('Content-Type: text/html');
      expect(mail).toContain('GBP 12.50');
      expect(mail).toContain('Notify Widgets Ltd');
      expect(mail).toContain('Content-ID: <company-logo@ledgerline>');
      expect(mail).toContain('src="cid:company-logo@ledgerline"');
      // the mail drop's '=\n' undoing also eats the base64 padding at a line end
      expect(mail.replace(/\n/g, '')).toContain(png.toString('base64').replace(/=+$/, ''));
    }
    expect(to(admin.email)[0]).toContain('Subject: Payment received: GBP 12.50');
    expect(to(admin.email)[0]).toContain(`/rd?et=pt&eid=${payment.id}&ds=1`);
    expect(to('payer@customer.example')[0]).toContain(
      'Subject: Your payment of GBP 12.50 to Notify Widgets Ltd is complete',
    );

    // A retried job of the same event sends nothing again.
    const again: MailMessage[] = [];
    const retry = createPaymentNotifications({
      database: ctx.database,
      jobs: {} as never,
      mailer: { send: async (message) => void again.push(message) },
      publicUrl: 'http://localhost:3000',
      log: ctx.app.log,
    });
    for (const notificationName of [
      'TenantPaymentSuccessful',
      'PaymentPendingCompleted',
    ] as const) {
      await retry.deliver({
        tenantId: admin.tenantId,
        datasetId: 1,
        paymentTransactionId: payment.id,
        eventKey: `${payment.id}:Pending:Paid`,
        notificationName,
      });
    }
    expect(again).toEqual([]);
    expect(notificationJob).toBe('notification.payment');
  });

  it('sends nothing when the notifications are off', async () => {
    rmSync(outbox, { recursive: true, force: true });
    const { items } = (await call(admin, 'GET', '/api/v0/notifications/users')).json();
    for (const recipient of items) {
      await call(admin, 'PUT', '/api/v0/notifications/users', {
        id: recipient.id,
        notificationSettings: [{ notificationName: 'TenantPaymentSuccessful', isEnabled: false }],
      });
    }
    const customer = await call(admin, 'PUT', '/api/v0/notifications/customer', {
      notificationSettings: [
        { notificationName: 'PaymentPendingCompleted', isEnabled: false },
        { notificationName: 'PaymentPendingCancelled', isEnabled: false },
      ],
    });
    expect(customer.json().notificationSettings).toContainEqual({
      notificationUserId: null,
      notificationName: 'PaymentPendingCompleted',
      isEnabled: false,
    });
    const captured = await pendingPayment('payer2@customer.example');
    expect(
      (
        await call(admin, 'POST', `/api/v0/payment-transactions/${captured.id}/pending/capture`, {
          amountToCapture: 5,
        })
      ).json().isError,
    ).toBe(false);
    const cancelled = await pendingPayment('payer3@customer.example');
    expect(
      (
        await call(admin, 'POST', `/api/v0/payment-transactions/${cancelled.id}/pending/cancel`, {})
      ).json().isError,
    ).toBe(false);
    await notificationsSettled();
    expect(mails()).toEqual([]);
  });

  it('removes a recipient', async () => {
    const { items } = (await call(admin, 'GET', '/api/v0/notifications/users')).json();
    expect(
      (await call(admin, 'DELETE', `/api/v0/notifications/users?id=${items[0].id}`)).statusCode,
    ).toBe(204);
    expect((await call(admin, 'GET', '/api/v0/notifications/users')).json().items).toHaveLength(1);
  });
});
