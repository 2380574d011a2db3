import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { auditActivities, sessions, users } from '../../db/schema.js';
import { buildTestApp, invitationLinkIn, openInvitation, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { waitFor } from '../../../test/wait.js';

let ctx: TestContext;
let admin: SignedIn;
let other: SignedIn;
const mailDir = mkdtempSync(join(tmpdir(), 'ledgerline-mail-'));

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: mailDir });
  admin = await signIn(ctx, { tenantName: 'People Ltd' });
  other = await signIn(ctx, { tenantName: 'Rival Ltd' });
});
afterAll(() => ctx.close());

/** The invitation link mailed to an address (the mail drop's .eml, quoted-printable undone). */
async function invitationTo(email: string) {
  const mail = await waitFor(async () => {
    if (!existsSync(join(mailDir, 'mail'))) return undefined;
    const files = readdirSync(join(mailDir, 'mail')).map((f) => readFileSync(join(mailDir, 'mail', f), 'utf8'));
    return files.find((f) => f.includes(`To: ${email}`));
  });
  return invitationLinkIn(mail.replace(/=\n/g, '').replace(/=3D/g, '='));
}

const post = (user: SignedIn, payload: object) =>
  ctx.app.inject({ method: 'POST', url: '/api/v0/users', headers: user.headers(), payload });

describe('inviting users', () => {
  it('creates the user, trims the name, writes the activity and mails an invitation', async () => {
    const response = await post(admin, { name: '  Vera Viewer ', email: 'vera@people.example', role: 'Viewer', redirectUri: 'http://localhost:3000/' });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({ displayName: 'Vera Viewer', emailAddress: 'vera@people.example', role: 'Viewer', invitationPending: true });
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'CreateUser'), eq(auditActivities.resourceId, user.id)));
    expect(activity).toMatchObject({ status: 201, userId: admin.userId });
    const mail = await waitFor(async () => {
      if (!existsSync(join(mailDir, 'mail'))) return undefined;
      const files = readdirSync(join(mailDir, 'mail')).map((f) => readFileSync(join(mailDir, 'mail', f), 'utf8'));
      return files.find((f) => f.includes('vera@people.example'));
    });
    expect(mail).toContain('Subject: Your invitation to Ledgerline');
    expect(mail).toContain('Hello Vera Viewer,');
  });

  it.each([
    [{ name: '', email: 'a@b.example', role: 'Viewer' }, 'name', 'Name is required.'],
    [{ name: 'x'.repeat(101), email: 'a@b.example', role: 'Viewer' }, 'name', 'Name must be at most 100 characters.'],
    [{ name: 'No Mail', email: '', role: 'Viewer' }, 'email', 'Email is required.'],
    [{ name: 'Bad Mail', email: 'not-an-email', role: 'Viewer' }, 'email', 'Enter a valid email address.'],
    [{ name: 'Long Mail', email: `${'a'.repeat(495)}@b.example`, role: 'Viewer' }, 'email', 'Email must be at most 500 characters.'],
    [{ name: 'No Role', email: 'r@b.example', role: 'Owner' }, 'role', 'Choose a role.'],
  ])('refuses %j', async (payload, field, message) => {
    const response = await post(admin, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toContain(message);
  });

  it('refuses an e-mail already in use, whatever its case, but tells accents apart', async () => {
    const duplicate = await post(admin, { name: 'Vera Two', email: 'VERA@People.Example', role: 'Viewer' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().errors.email).toEqual(['User with the same email address already exists.']);
    const accented = await post(admin, { name: 'Véra', email: 'véra@people.example', role: 'Viewer' });
    expect(accented.statusCode).toBe(201);
  });

  it('refuses a display name already in use in the tenant (another tenant may use it)', async () => {
    const duplicate = await post(admin, { name: 'vera viewer', email: 'other-vera@people.example', role: 'Viewer' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().errors.name).toEqual(['User with the same name already exists.']);
    const elsewhere = await post(other, { name: 'Vera Viewer', email: 'vera@rival.example', role: 'Standard' });
    expect(elsewhere.statusCode).toBe(201);
  });
});

describe('changing users', () => {
  async function userByEmail(email: string) {
    const [row] = await ctx.database.db.select().from(users).where(eq(users.emailAddress, email));
    return row!;
  }

  it('lists the tenant’s users by name and renames one', async () => {
    const list = await ctx.app.inject({ method: 'GET', url: '/api/v0/users/all', headers: admin.headers() });
    const names = list.json().items.map((u: { displayName: string }) => u.displayName);
    expect(names).toContain('Vera Viewer');
    expect(names).not.toContain('Admin vera@rival.ex');
    expect([...names].sort((a: string, b: string) => a.localeCompare(b))).toEqual(names);
    const vera = await userByEmail('vera@people.example');
    const renamed = await ctx.app.inject({ method: 'PUT', url: `/api/v0/users/${vera.id}`, headers: admin.headers(), payload: { id: vera.id, name: ' Vera V. ' } });
    expect(renamed.json()).toMatchObject({ displayName: 'Vera V.', emailAddress: 'vera@people.example' });
    const clash = await ctx.app.inject({ method: 'PUT', url: `/api/v0/users/${vera.id}`, headers: admin.headers(), payload: { id: vera.id, name: 'Véra' } });
    expect(clash.statusCode).toBe(409);
    // The body the users page sends (name) is read as the spec's displayName, where the clash shows.
    expect(clash.json().errors.displayName).toEqual(['User with the same name already exists.']);
  });

  // spec 1 §3, §7: PUT users/{id} takes { id, displayName }; §5: the name stays unique, 1 to 100, trimmed.
  it('renames with the spec body { id, displayName }, and refuses what breaks the name rules', async () => {
    const dora = (await post(admin, { name: 'Dora Display', email: 'dora@people.example', role: 'Viewer' })).json();
    const put = (payload: object) =>
      ctx.app.inject({ method: 'PUT', url: `/api/v0/users/${dora.id}`, headers: admin.headers(), payload });
    const renamed = await put({ id: dora.id, displayName: '  Dora D. ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: dora.id, displayName: 'Dora D.' });
    // displayName is the spec's field: it wins over the users page's name.
    expect((await put({ id: dora.id, displayName: 'Dora E.', name: 'Ignored' })).json().displayName).toBe('Dora E.');
    expect((await put({ id: dora.id, name: '' })).json().errors).toEqual({ displayName: ['Name is required.'] });

    const clash = await put({ id: dora.id, displayName: 'VERA V.' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({
      detail: 'User with the same name already exists.',
      errors: { displayName: ['User with the same name already exists.'] },
    });
    for (const [payload, message] of [
      [{ id: dora.id }, 'Name is required.'],
      [{ id: dora.id, displayName: '   ' }, 'Name is required.'],
      [{ id: dora.id, displayName: 'x'.repeat(101) }, 'Name must be at most 100 characters.'],
    ] as const) {
      const refused = await put(payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().errors.displayName).toEqual([message]);
    }
    expect((await put({ id: dora.id, displayName: 'x'.repeat(100) })).statusCode).toBe(200);
    const otherId = await put({ id: admin.userId, displayName: 'Someone' });
    expect(otherId.statusCode).toBe(400);
    expect(otherId.json().errors.id).toEqual(['The id in the body must match the address.']);
    const [stored] = await ctx.database.db.select().from(users).where(eq(users.id, dora.id));
    expect(stored!.displayName).toBe('x'.repeat(100));
  });

  it('changes a role, but never the caller’s own', async () => {
    const vera = await userByEmail('vera@people.example');
    const changed = await ctx.app.inject({ method: 'PUT', url: `/api/v0/users/${vera.id}/role?role=Standard`, headers: admin.headers() });
    expect(changed.json().role).toBe('Standard');
    const own = await ctx.app.inject({ method: 'PUT', url: `/api/v0/users/${admin.userId}/role?role=Viewer`, headers: admin.headers() });
    expect(own.statusCode).toBe(409);
    expect(own.json().detail).toBe('You cannot change your own role.');
    const bad = await ctx.app.inject({ method: 'PUT', url: `/api/v0/users/${vera.id}/role?role=Owner`, headers: admin.headers() });
    expect(bad.statusCode).toBe(400);
  });

  it('never deletes the caller', async () => {
    const self = await ctx.app.inject({ method: 'DELETE', url: `/api/v0/users/${admin.userId}`, headers: admin.headers() });
    expect(self.statusCode).toBe(409);
    expect(self.json().detail).toBe('You cannot delete yourself.');
  });

  it('keeps at least one Administrator when two demote each other at once', async () => {
    const first = await signIn(ctx, { tenantName: 'Pair Ltd' });
    const secondEmail = 'second@pair.example';
    const second = (await post(first, { name: 'Second', email: secondEmail, role: 'Administrator' })).json();
    const token = await ctx.oidc.token({ sub: 'second-sub', email: secondEmail });
    const { cookie } = await openInvitation(ctx, await invitationTo(secondEmail));
    const login = await ctx.app.inject({ method: 'POST', url: '/api/v0/login', payload: { accessToken: token }, headers: { cookie } });
    const jar = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
    const secondHeaders = { cookie: `ledgerline_session=${jar.ledgerline_session}`, 'x-xsrf-token': jar['XSRF-TOKEN']! };
    const [a, b] = await Promise.all([
      ctx.app.inject({ method: 'PUT', url: `/api/v0/users/${second.id}/role?role=Viewer`, headers: first.headers() }),
      ctx.app.inject({ method: 'PUT', url: `/api/v0/users/${first.userId}/role?role=Viewer`, headers: secondHeaders }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json()).toMatchObject({ detail: 'The company must keep at least one Administrator.', errorCode: 'lastAdministrator' });
    const roles = await ctx.database.withTenant(first.tenantId, (tx) => tx.select({ role: users.role }).from(users));
    expect(roles.filter((r) => r.role === 'Administrator')).toHaveLength(1);
  });

  it('ends a deleted user’s sessions at once', async () => {
    const team = await signIn(ctx, { tenantName: 'Team Ltd' });
    const colleagueEmail = 'colleague@team.example';
    const colleague = (await post(team, { name: 'Colleague', email: colleagueEmail, role: 'Standard' })).json();
    const token = await ctx.oidc.token({ sub: 'colleague-sub', email: colleagueEmail });
    const { cookie } = await openInvitation(ctx, await invitationTo(colleagueEmail));
    const login = await ctx.app.inject({ method: 'POST', url: '/api/v0/login', payload: { accessToken: token }, headers: { cookie } });
    expect(login.statusCode).toBe(204);
    const removed = await ctx.app.inject({ method: 'DELETE', url: `/api/v0/users/${colleague.id}`, headers: team.headers() });
    expect(removed.statusCode).toBe(204);
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.userId, colleague.id))).toHaveLength(0);
  });

  it('never shows, changes or deletes a user of another tenant', async () => {
    const vera = await userByEmail('vera@people.example');
    for (const [method, url, payload] of [
      ['GET', `/api/v0/users/${vera.id}`, undefined],
      ['PUT', `/api/v0/users/${vera.id}`, { id: vera.id, name: 'Hijacked' }],
      ['PUT', `/api/v0/users/${vera.id}/role?role=Viewer`, undefined],
      ['DELETE', `/api/v0/users/${vera.id}`, undefined],
    ] as const) {
      const response = await ctx.app.inject({ method, url, headers: other.headers(), payload });
      expect(response.statusCode).toBe(404);
    }
    expect((await userByEmail('vera@people.example')).displayName).toBe('Vera V.');
  });

  it('needs ConfigureSystemSettings', async () => {
    const standard = await signIn(ctx, { tenantName: 'Standard Ltd' });
    await ctx.database.db.update(users).set({ role: 'Standard' }).where(eq(users.id, standard.userId));
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v0/users/all', headers: standard.headers() })).statusCode).toBe(403);
    expect((await post(standard, { name: 'X', email: 'x@standard.example', role: 'Viewer' })).statusCode).toBe(403);
  });
});

// The users grid's search box, on the server.
describe('GET users/all?search=', () => {
  it('finds users by part of their name or e-mail, in any case, and only the tenant’s own', async () => {
    const mine = await signIn(ctx, { tenantName: 'Searchable People Ltd' });
    const theirs = await signIn(ctx, { tenantName: 'Other Searchable People Ltd' });
    for (const [who, name, email] of [
      [mine, 'Quentin Quokka', 'quentin@searchable.example'],
      [mine, 'Wanda Wombat', 'wanda@quokka-mail.example'],
      [mine, 'Paula Possum', 'paula@searchable.example'],
      [theirs, 'Quinn Quokka', 'quinn@other.example'],
    ] as const) {
      expect((await post(who, { name, email, role: 'Standard' })).statusCode).toBe(201);
    }
    const search = async (who: SignedIn, words: string) => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/v0/users/all?search=${encodeURIComponent(words)}`,
        headers: who.headers(),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().items.map((u: { displayName: string }) => u.displayName) as string[];
    };
    // By name or by e-mail; the list keeps its order by name.
    expect(await search(mine, ' QUOKKA ')).toEqual(['Quentin Quokka', 'Wanda Wombat']);
    expect(await search(mine, 'possum')).toEqual(['Paula Possum']);
    expect(await search(mine, 'nobody-here')).toEqual([]);
    expect(await search(theirs, 'quokka')).toEqual(['Quinn Quokka']);
    const long = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/users/all?search=${'x'.repeat(101)}`,
      headers: mine.headers(),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.search).toBeDefined();
  });
});
