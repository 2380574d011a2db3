import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createSignInThrottle } from './sign-in-throttle.js';
import { createTenant } from '../features/tenants/tenants.service.js';
import { buildTestApp, type TestContext } from '../../test/app.js';

/**
 * POST /api/v0/login counts attempts per account (a growing delay, never a
 * lockout) as well as per address, in the database, so every API process counts the same.
 */
let ctx: TestContext;

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token that claims an account and is signed by nobody the server trusts. */
const forged = (email: string) =>
  `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ sub: 'attacker', email })}.${encode({ sig: 1 })}`;

function login(accessToken: string, remoteAddress: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v0/login',
    payload: { accessToken },
    remoteAddress,
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '5' });
});

afterAll(async () => {
  await ctx?.close();
});

describe('POST /login per account', () => {
  it('delays attempts for one account from many addresses, and lets its owner in after the delay', async () => {
    // Verified tokens of an address the IdP vouches for, which has no Ledgerline access yet:
    // every attempt is refused after the token was verified, and counts for that account.
    const email = 'outsider@example.com';
    const verified = () => ctx.oidc.token({ sub: 'outsider-sub', email });
    for (let i = 1; i <= 5; i++) {
      expect((await login(await verified(), `127.0.0.${i}`)).statusCode).toBe(403);
    }
    const delayed = await login(await verified(), '127.0.0.6');
    expect(delayed.statusCode).toBe(429);
    expect(delayed.headers['content-type']).toContain('application/problem+json');
    expect(delayed.headers['retry-after']).toBe('1');
    expect(delayed.json()).toMatchObject({
      status: 429,
      title: 'Too Many Requests',
      detail: 'Too many failed sign-in attempts for this account. Try again in 1 seconds.',
    });
    // The delay grows with each attempt taken...
    await wait(1_100);
    expect((await login(await verified(), '127.0.0.7')).statusCode).toBe(403);
    const longer = await login(await verified(), '127.0.0.8');
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');
    // ...but never locks the owner out, and another account is not slowed.
    const bystander = await ctx.oidc.token({
      sub: 'bystander-sub',
      email: 'bystander@example.com',
    });
    expect((await login(bystander, '127.0.0.9')).statusCode).toBe(403);
    await wait(2_100);
    const { userId } = await createTenant(ctx.database, {
      name: 'Outsider Ltd',
      adminEmail: email,
      adminName: 'Outsider',
    });
    const token = await ctx.oidc.token({ sub: `sub-${userId}`, email });
    expect((await login(token, '127.0.0.10')).statusCode).toBe(204);
    // A success starts the count over: five free attempts again.
    const foreign = () => ctx.oidc.token({ sub: 'other-sub', email }, { foreignKey: true });
    for (let i = 0; i < 5; i++) {
      expect((await login(await foreign(), `127.0.1.${i}`)).statusCode).toBe(401);
    }
  });

  it('charges an account only for tokens that verify: forged ones naming it never slow its owner', async () => {
    const email = 'victim@example.com';
    const { userId } = await createTenant(ctx.database, {
      name: 'Victim Ltd',
      adminEmail: email,
      adminName: 'Victim',
    });
    // Ten addresses, one forged token each: under every address's limit, all naming the victim.
    for (let i = 1; i <= 10; i++) {
      expect((await login(forged(email), `127.0.2.${i}`)).statusCode).toBe(401);
    }
    // Signed by a key the server does not trust, naming the victim by e-mail and subject.
    for (let i = 1; i <= 5; i++) {
      const foreign = await ctx.oidc.token({ sub: `sub-${userId}`, email }, { foreignKey: true });
      expect((await login(foreign, `127.0.3.${i}`)).statusCode).toBe(401);
    }
    const token = await ctx.oidc.token({ sub: `sub-${userId}`, email });
    const owner = await login(token, '127.0.2.99');
    expect(owner.statusCode, owner.body).toBe(204);
  });

  it('keeps the per-address limit, whatever account the attempts name', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await login(forged(`user${i}@example.com`), '10.9.9.9')).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('counts in the database: two processes over one database share the counts', async () => {
    const first = createSignInThrottle(ctx.database, { perAddressPerMinute: 3 });
    const second = createSignInThrottle(ctx.database, { perAddressPerMinute: 3 });
    const answers = [
      await first.address('shared', '10.0.0.1'),
      await second.address('shared', '10.0.0.1'),
      await first.address('shared', '10.0.0.1'),
      await second.address('shared', '10.0.0.1'),
    ];
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false]);
    for (let i = 0; i < 5; i++) {
      expect((await (i % 2 ? first : second).account('shared@example.com')).allowed).toBe(true);
    }
    expect((await first.account('SHARED@example.com ')).allowed).toBe(false);
  });

  it('keeps the counts from the application role, as sessions', async () => {
    const { tenantId } = await createTenant(ctx.database, {
      name: 'Role Ltd',
      adminEmail: 'role@example.com',
      adminName: 'Role',
    });
    await expect(
      ctx.database.withTenant(tenantId, (tx) => tx.execute(sql`select * from sign_in_throttles`)),
    ).rejects.toThrow();
  });

  it('takes one of many attempts sent together once the free ones are used', async () => {
    const throttle = createSignInThrottle(ctx.database, { perAddressPerMinute: 100 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => throttle.account('burst@example.com')),
    );
    expect(answers.filter((a) => a.allowed)).toHaveLength(5);
  });
});
