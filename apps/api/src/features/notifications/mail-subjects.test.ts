import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCards } from '@ledgerline/contract';
import type { MailMessage } from '../../platform/mail.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { insertAccount, insertRequest } from '../../../test/fixtures/pay.js';
import { waitFor } from '../../../test/wait.js';

/**
 * What a payer writes on the payer page (their name) reaches the subject of the
 * staff's payment mail. Control characters (CR/LF included) are stripped from every value put into
 * a subject and each value is bounded, so a payer can neither add header lines nor push the
 * subject's own words out of sight.
 */
let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
const sent: MailMessage[] = [];

beforeAll(async () => {
  ctx = await buildTestApp(
    { RATE_LIMIT_PAY_PER_MINUTE: '100000' },
    {},
    { mailer: { send: async (message) => void sent.push(message) } },
  );
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Subject Ltd' });
  await makeDemoCompany(ctx, admin);
  const recipient = await call(admin, 'POST', 'notifications/users', {
    type: 'EmailAddress',
    emailAddress: 'finance@subject.example',
  });
  await call(admin, 'PUT', 'notifications/users', {
    id: recipient.json().id,
    notificationSettings: [{ notificationName: 'TenantPaymentSuccessful', isEnabled: true }],
  });
}, 60_000);
afterAll(() => ctx?.close());

// Every C0 and C1 control, DEL, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

describe('mail subjects', () => {
  it("strip control characters from the payer's name and bound its length", async () => {
    const accountId = await insertAccount(ctx, admin, { name: 'Subject Customer' });
    const sandbox = await call(admin, 'POST', 'providers', {
      providerName: 'Sandbox',
      enabled: true,
      displayPriority: 1,
      isTest: true,
      name: 'Card (test)',
    });
    expect(sandbox.statusCode, sandbox.body).toBe(201);
    const id = await insertRequest(ctx, admin, { accountId, amountToPay: '12.5' });
    const firstNames = 'Eve\r\nBcc: attacker@evil.example\r\n\u0007\u001b[31m\u2028X';
    const surname = 'Z'.repeat(100);
    const started = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${id}/payments`,
      payload: { configurationId: sandbox.json().id, payer: { firstNames, surname } },
    });
    expect(started.statusCode, started.body).toBe(201);
    const paid = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/pay/${id}/payments/${started.json().paymentId}/sandbox`,
      payload: {
        cardholderName: 'Eve',
        cardNumber: sandboxCards.succeeds,
        expiry: '12/30',
        cvc: '123',
      },
    });
    expect(paid.statusCode, paid.body).toBe(200);

    const mail = await waitFor(async () =>
      sent.find((message) => message.to === 'finance@subject.example'),
    );
    expect(mail.subject).not.toMatch(controls);
    expect(mail.subject).not.toContain('\n');
    expect(
      mail.subject.startsWith('Payment received: GBP 12.50 from Eve Bcc: attacker@evil.example'),
    ).toBe(true);
    // The name is cut at 80 characters, marked with an ellipsis.
    const name = mail.subject.slice('Payment received: GBP 12.50 from '.length);
    expect(name).toHaveLength(80);
    expect(name.endsWith('…')).toBe(true);
    // The body keeps the name (escaped in HTML), only the subject is a header.
    expect(mail.text).toContain('Z'.repeat(100));
  });
});
