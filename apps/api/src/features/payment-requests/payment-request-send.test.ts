import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { paymentRequestMessages as m } from '@ledgerline/contract';
import { auditActivities } from '../../db/schema.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller, makeViewer } from '../../../test/fixtures/money-rules.js';
import { insertAccount, insertRequest, mailsIn } from '../../../test/fixtures/pay.js';
import { waitFor } from '../../../test/wait.js';

/** Staff mail a request's link to its payer, and send it again. */
let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let accountId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-request-send-'));
const outbox = join(dataDir, 'mail');

const send = (who: SignedIn, id: string) => call(who, 'POST', `payment-requests/${id}/send`);
const billingContact = { firstNames: 'Pat', surname: 'Payer', emailAddress: 'pat@payer.example' };
const mailsTo = (id: string) => mailsIn(outbox).filter((mail) => mail.includes(`/pay/${id}`));
const activitiesOf = (id: string) =>
  ctx.database.db
    .select()
    .from(auditActivities)
    .where(and(eq(auditActivities.operation, 'SendPaymentRequest'), eq(auditActivities.resourceId, id)));

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Send Requests Ltd' });
  accountId = await insertAccount(ctx, admin);
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST payment-requests/{id}/send', () => {
  it('mails the link to the billing contact with an audit activity; a resend mails it again; the request lists its mails', async () => {
    const id = await insertRequest(ctx, admin, { accountId, billingContact, amountToPay: '28947' });
    const response = await send(admin, id);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ emailAddress: 'pat@payer.example' });
    const [mail] = await waitFor(async () => (mailsTo(id).length === 1 ? mailsTo(id) : undefined));
    expect(mail).toContain('To: pat@payer.example');
    expect(mail).toContain('Subject: Payment request from');
    expect(mail).toContain('GBP 28947.00');
    expect(mail).toContain(`http://localhost:3000/pay/${id}`);
    expect(await activitiesOf(id)).toMatchObject([{ resourceType: 'PaymentRequest', status: 202 }]);

    expect((await send(admin, id)).statusCode).toBe(202);
    await waitFor(async () => mailsTo(id).length === 2);
    const detail = await waitFor(async () => {
      const body = (await call(admin, 'GET', `payment-requests/${id}`)).json();
      return body.mails?.length === 2 ? body : undefined;
    });
    expect(detail.mails[0]).toMatchObject({ emailAddress: 'pat@payer.example' });
    expect(Date.parse(detail.mails[0].sentOn)).toBeGreaterThanOrEqual(Date.parse(detail.mails[1].sentOn));
    expect(await activitiesOf(id)).toHaveLength(2);
  });

  it('answers 422 with the message when the billing contact has no e-mail address, and mails nothing', async () => {
    const without = await insertRequest(ctx, admin, { accountId, billingContact: { firstNames: 'Pat', emailAddress: '  ' } });
    const none = await insertRequest(ctx, admin, { accountId, billingContact: null });
    for (const id of [without, none]) {
      const response = await send(admin, id);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toBe(m.noEmailAddress);
      expect(m.noEmailAddress).toBe(
        'The payment request has no billing contact e-mail address: add one to its billing contact, then send it',
      );
    }
    const [activity] = await activitiesOf(without);
    expect(activity).toMatchObject({ status: 422 });
    expect(mailsTo(without)).toEqual([]);
  });

  it.each(['Cancelled', 'Completed', 'Expired'])('answers 409 for a %s request', async (requestStatus) => {
    const id = await insertRequest(ctx, admin, { accountId, billingContact, requestStatus });
    const response = await send(admin, id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      detail: 'Only an Open payment request can be sent to the payer',
      errorCode: 'paymentRequestNotSendable',
    });
  });

  it('needs EditPaymentRequest, and another company’s request is not found', async () => {
    const id = await insertRequest(ctx, admin, { accountId, billingContact });
    const viewer = await signIn(ctx, { tenantName: 'Send Viewers Ltd' });
    await makeViewer(ctx, viewer);
    const theirs = await insertRequest(ctx, viewer, { accountId: await insertAccount(ctx, viewer), billingContact });
    expect((await send(viewer, theirs)).statusCode).toBe(403);
    const other = await signIn(ctx, { tenantName: 'Other Send Ltd' });
    const foreign = await send(other, id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().detail).toBe(m.notFound);
    expect((await call(admin, 'POST', 'payment-requests/0190d7a2-0000-7000-8000-000000000000/send')).statusCode).toBe(404);
    // Neither refused call mailed anyone.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(id)).toEqual([]);
    expect(mailsTo(theirs)).toEqual([]);
  });
});
