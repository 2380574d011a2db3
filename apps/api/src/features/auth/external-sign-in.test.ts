import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { createTenant } from '../tenants/tenants.service.js';
import type { MailMessage } from '../../platform/mail.js';
import {
  buildTestApp,
  cookiesOf,
  invitationLinkIn,
  openInvitation,
  signIn,
  type SignedIn,
  type TestContext,
} from '../../../test/app.js';
import { waitFor } from '../../../test/wait.js';

/**
 * With an external identity provider (OIDC_ISSUER) a first sign-in binds a
 * Ledgerline user to the provider's subject. It takes an address the provider verified
 * (`email_verified: true`), and an invited user binds only through their invitation: the mailed
 * link leaves a single-use proof in the browser, which the first sign-in must bring.
 */
let ctx: TestContext;
let admin: SignedIn;
const sent: MailMessage[] = [];

beforeAll(async () => {
  ctx = await buildTestApp(
    {},
    {},
    { mailer: { send: async (message) => void sent.push(message) } },
  );
  admin = await signIn(ctx, { tenantName: 'External Ltd' });
});
afterAll(() => ctx?.close());

const unverified =
  'Your identity provider has not verified your e-mail address. Verify it there, then sign in again.';
const needsInvitation =
  'Open the invitation link from your e-mail to sign in to Ledgerline for the first time.';
const invitationExpired =
  'Your invitation has expired or was already used. Ask an administrator of your company to invite you again.';

function login(accessToken: string, cookie?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v0/login',
    payload: { accessToken },
    ...(cookie ? { headers: { cookie } } : {}),
  });
}

async function binding(email: string) {
  const [row] = await ctx.database.db
    .select({ subject: users.idpSubject })
    .from(users)
    .where(eq(users.emailAddress, email));
  return row?.subject ?? null;
}

async function invite(email: string, role = 'Administrator') {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/users',
    headers: admin.headers(),
    payload: {
      name: `Invited ${email.slice(0, 12)}`,
      email,
      role,
      redirectUri: 'http://localhost:3000/',
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const mail = await waitFor(async () => sent.find((m) => m.to === email));
  return invitationLinkIn(mail.text);
}

describe('a first sign-in by e-mail', () => {
  it.each([
    ['false', false],
    ['left out', null],
    ['the string "true"', 'true'],
  ] as const)(
    'is refused when email_verified is %s, and binds nobody',
    async (_label, verified) => {
      const email = `first-${randomUUID().slice(0, 8)}@example.com`;
      await createTenant(ctx.database, {
        name: `T ${email}`,
        adminEmail: email,
        adminName: `A ${email}`,
      });
      const token = await ctx.oidc.token({ sub: 'someone', email, email_verified: verified });
      const response = await login(token);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ status: 403, detail: unverified });
      expect(await binding(email)).toBeNull();
    },
  );

  it("binds the first administrator an operator made by the provider's verified address", async () => {
    const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
    await createTenant(ctx.database, {
      name: `T ${email}`,
      adminEmail: email,
      adminName: `A ${email}`,
    });
    const response = await login(await ctx.oidc.token({ sub: `owner-sub-${email}`, email }));
    expect(response.statusCode, response.body).toBe(204);
    expect(await binding(email)).toBe(`owner-sub-${email}`);
    // Bound: the subject signs in afterwards whatever its token says of the address.
    const later = await ctx.oidc.token({ sub: `owner-sub-${email}`, email, email_verified: false });
    expect((await login(later)).statusCode).toBe(204);
  });
});

describe('an invited user', () => {
  it('is not bound by a verified address alone', async () => {
    const email = 'ivan@external.example';
    await invite(email);
    const attacker = await ctx.oidc.token({ sub: 'attacker-sub', email });
    const response = await login(attacker);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ status: 403, detail: needsInvitation });
    expect(await binding(email)).toBeNull();
  });

  it('binds through the invitation link: once, to the verified address it was sent to', async () => {
    const email = 'ines@external.example';
    const link = await invite(email);
    expect(link.origin + link.pathname).toBe('http://localhost:3000/api/v0/invitations/accept');
    const opened = await openInvitation(ctx, link);
    expect(opened.response.statusCode).toBe(303);
    expect(opened.response.headers.location).toBe('http://localhost:3000/');
    const cookie = opened.response.cookies.find((c) => c.name === 'ledgerline_invitation')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/v0/login' });

    // The proof with an unverified address, or another address, binds nobody.
    const unverifiedToken = await ctx.oidc.token({ sub: 'ines-sub', email, email_verified: false });
    expect((await login(unverifiedToken, opened.cookie)).json().detail).toBe(unverified);
    const other = await ctx.oidc.token({ sub: 'mallory-sub', email: 'mallory@external.example' });
    expect((await login(other, opened.cookie)).statusCode).toBe(403);
    expect(await binding(email)).toBeNull();

    const response = await login(await ctx.oidc.token({ sub: 'ines-sub', email }), opened.cookie);
    expect(response.statusCode, response.body).toBe(204);
    expect(await binding(email)).toBe('ines-sub');
    // The sign-in used the proof up and clears its cookie.
    expect(response.cookies.find((c) => c.name === 'ledgerline_invitation')?.value).toBe('');
    const [row] = await ctx.database.db
      .select({ hash: users.invitationTokenHash })
      .from(users)
      .where(eq(users.emailAddress, email));
    expect(row!.hash).toBeNull();

    // The link again, by another account with the same address at the provider: nobody to bind.
    const again = await openInvitation(ctx, link);
    const second = await login(await ctx.oidc.token({ sub: 'ines-twin', email }), again.cookie);
    expect(second.statusCode).toBe(403);
    expect(await binding(email)).toBe('ines-sub');
  });

  it('is refused with an expired invitation, and a wrong token is no proof', async () => {
    const email = 'old@external.example';
    const link = await invite(email);
    const opened = await openInvitation(ctx, link);
    await ctx.database.db
      .update(users)
      .set({ invitationExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(users.emailAddress, email));
    const token = await ctx.oidc.token({ sub: 'old-sub', email });
    const expired = await login(token, opened.cookie);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().detail).toBe(invitationExpired);
    await ctx.database.db
      .update(users)
      .set({ invitationExpiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(users.emailAddress, email));
    const forged = await login(token, 'ledgerline_invitation=not-the-token');
    expect(forged.statusCode).toBe(403);
    expect(forged.json().detail).toBe(invitationExpired);
    expect(await binding(email)).toBeNull();
    expect((await login(token, opened.cookie)).statusCode).toBe(204);
  });

  it('answers an accept link without a token with 400', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v0/invitations/accept' });
    expect(response.statusCode).toBe(400);
  });
});

// spec 1 §3 User (me): forename and surname (docs/decisions/124-spec-1-row-by-row-logo-rules-user-update-body-to.md "Forename and surname").
describe('forename and surname', () => {
  async function owner(adminName: string) {
    const email = `named-${randomUUID().slice(0, 8)}@example.com`;
    const { tenantId, userId } = await createTenant(ctx.database, {
      name: `T ${email}`,
      adminEmail: email,
      adminName,
    });
    return { email, tenantId, userId, sub: `named-sub-${email}` };
  }
  async function me(response: Awaited<ReturnType<typeof login>>) {
    expect(response.statusCode, response.body).toBe(204);
    const cookie = response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const profile = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: { cookie },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    return profile.json() as {
      displayName: string;
      forename: string | null;
      surname: string | null;
    };
  }

  it("are the provider's given_name and family_name, refreshed at each sign-in that carries them", async () => {
    const who = await owner('Gracie H');
    const first = await me(
      await login(
        await ctx.oidc.token({
          sub: who.sub,
          email: who.email,
          given_name: ' Grace ',
          family_name: 'Brewster Murray Hopper',
        }),
      ),
    );
    expect(first).toMatchObject({
      displayName: 'Gracie H',
      forename: 'Grace',
      surname: 'Brewster Murray Hopper',
    });
    // A token without the claims keeps what the provider said before.
    const without = await me(await login(await ctx.oidc.token({ sub: who.sub, email: who.email })));
    expect(without).toMatchObject({ forename: 'Grace', surname: 'Brewster Murray Hopper' });
    const renamed = await me(
      await login(
        await ctx.oidc.token({
          sub: who.sub,
          email: who.email,
          given_name: 'Amazing',
          family_name: 'Grace',
        }),
      ),
    );
    expect(renamed).toMatchObject({ forename: 'Amazing', surname: 'Grace' });
  });

  it('are read from the display name when the provider gives none, and follow a rename', async () => {
    const who = await owner('Ada King Lovelace');
    const token = await ctx.oidc.token({ sub: who.sub, email: who.email });
    const session = await login(token);
    expect(await me(session)).toMatchObject({ forename: 'Ada', surname: 'King Lovelace' });
    // The administrator renames themself through the users page's call (spec 1 §7).
    const jar = cookiesOf(session);
    const rename = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v0/users/${who.userId}`,
      headers: {
        cookie: Object.entries(jar)
          .map(([k, v]) => `${k}=${v}`)
          .join('; '),
        'x-xsrf-token': jar['XSRF-TOKEN']!,
      },
      payload: { id: who.userId, displayName: 'Countess' },
    });
    expect(rename.statusCode, rename.body).toBe(200);
    expect(await me(await login(token))).toMatchObject({ forename: 'Countess', surname: null });
  });
});
