import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureGateMessages } from '@ledgerline/contract';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../app.js';
import { setFeatureFlag } from '../feature-gates.js';
import { caller } from '../money-rules/fixtures.js';

/*
 * Issue 20 item 3: a feature behind a flag is refused by the server while the flag is off, not
 * only hidden by the site (docs/decisions.md, "Feature flags and tenant settings are checked by
 * the server"). Provider kinds: test/configuration/provider-gates.test.ts; the funding search
 * (Capitalise): test/settings/funding.test.ts.
 */

let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  ctx = await buildTestApp();
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Flagged Ltd' });
}, 60_000);
afterAll(() => ctx.close());

describe('settlement configurations (flag settlementConfigurations)', () => {
  it('answer 404 with the site’s words while the flag is off, and work once it is on', async () => {
    const off = featureGateMessages.featureOff('settlementConfigurations');
    await setFeatureFlag(ctx, 'settlementConfigurations', false);
    const create = await call(admin, 'POST', 'settlement-configuration-groups', { name: 'Terms' });
    expect(create.statusCode).toBe(404);
    expect(create.json().detail).toBe(off);
    const list = await call(admin, 'GET', 'settlement-configuration-groups');
    expect(list.statusCode).toBe(404);
    expect(list.json().detail).toBe(off);

    await setFeatureFlag(ctx, 'settlementConfigurations', true);
    const created = await call(admin, 'POST', 'settlement-configuration-groups', { name: 'Terms' });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json();
    await setFeatureFlag(ctx, 'settlementConfigurations', false);
    const configuration = await call(
      admin,
      'POST',
      `settlement-configuration-groups/${id}/configurations`,
      {
        type: 'AbsoluteDiscount',
        dateType: 'DueDate',
        numberOfDays: 5,
        amount: 1,
        currency: 'GBP',
      },
    );
    expect(configuration.statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `settlement-configuration-groups/${id}`)).statusCode).toBe(
      404,
    );
  });

  it('still asks for sign-in and the permission first', async () => {
    await setFeatureFlag(ctx, 'settlementConfigurations', false);
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/settlement-configuration-groups',
      headers: { 'dataset-id': '1' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
