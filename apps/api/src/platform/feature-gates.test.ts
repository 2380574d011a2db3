import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureGateMessages } from '@ledgerline/contract';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../test/app.js';
import { setFeatureFlag } from '../../test/feature-gates.js';
import { caller } from '../../test/fixtures/money-rules.js';

/*
 * A feature behind a flag is refused by the server while the flag is off, not
 * only hidden by the site (docs/decisions/101-feature-flags-and-tenant-settings-are-checked-by.md, "Feature flags and tenant settings are checked by
 * the server"). Provider kinds: src/features/payment-providers/provider-gates.test.ts; the funding search
 * (Capitalise): src/features/funding/funding.test.ts.
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
  // A new installation offered settlement options on invoices and accounts while its
  // Settlements screen said 'Settlement configurations are not enabled for this site.'.
  it('are on at a new installation, for the site and for the server', async () => {
    const flags = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/info/feature-flags?target=adminPortal',
    });
    expect(flags.statusCode).toBe(200);
    expect(flags.json().featureFlags.settlementConfigurations).toBe(true);
    const list = await call(admin, 'GET', 'settlement-configuration-groups');
    expect(list.statusCode, list.body).toBe(200);
    const created = await call(admin, 'POST', 'settlement-configuration-groups', {
      name: 'Day one',
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('stay on when FEATURE_FLAGS lists other flags only, and are off when it says so', async () => {
    const others = await buildTestApp({ FEATURE_FLAGS: 'PermissionPolicy=true' });
    const off = await buildTestApp({
      FEATURE_FLAGS: 'PermissionPolicy=true,settlementConfigurations=false',
    });
    try {
      const merchant = await signIn(others, { tenantName: 'Other Flags Ltd' });
      const listed = await caller(others)(merchant, 'GET', 'settlement-configuration-groups');
      expect(listed.statusCode, listed.body).toBe(200);

      const refused = await signIn(off, { tenantName: 'Flags Off Ltd' });
      const list = await caller(off)(refused, 'GET', 'settlement-configuration-groups');
      expect(list.statusCode).toBe(404);
      expect(list.json().detail).toBe('Settlement configurations are not enabled for this site.');
      const flags = await off.app.inject({
        method: 'GET',
        url: '/api/v0/info/feature-flags?target=adminPortal',
      });
      expect(flags.json().featureFlags.settlementConfigurations).toBe(false);
    } finally {
      await others.close();
      await off.close();
    }
  }, 60_000);

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
