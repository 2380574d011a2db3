import { and, eq } from 'drizzle-orm';
import { datasets, featureFlags, tenantSettings } from '../src/db/schema.js';
import type { TestContext } from './app.js';

/*
 * What an operator or a company's creation sets, for tests whose subject lies behind a gate
 * (the server checks each one; docs/decisions/101-feature-flags-and-tenant-settings-are-checked-by.md "Feature flags and tenant settings
 * are checked by the server").
 */

/**
 * Makes a company a demo company, as one created with the demo box ticked: Ledgerline's Sandbox
 * test provider can only be added to a demo company.
 */
export async function makeDemoCompany(
  ctx: TestContext,
  who: { tenantId: string },
  datasetId = 1,
): Promise<void> {
  await ctx.database.withTenant(who.tenantId, (tx) =>
    tx
      .update(datasets)
      .set({ type: 'Demo' })
      .where(and(eq(datasets.tenantId, who.tenantId), eq(datasets.id, datasetId))),
  );
}

/** Tenant setting ShowBetaPaymentProviders 'true': beta kinds (TrueLayer) may be configured. */
export async function showBetaProviders(ctx: TestContext, who: { tenantId: string }) {
  await ctx.database.withTenant(who.tenantId, (tx) =>
    tx
      .update(tenantSettings)
      .set({ value: 'true' })
      .where(
        and(
          eq(tenantSettings.tenantId, who.tenantId),
          eq(tenantSettings.name, 'ShowBetaPaymentProviders'),
        ),
      ),
  );
}

/** A feature flag as `npm run admin` sets it (global to the installation). */
export async function setFeatureFlag(ctx: TestContext, name: string, enabled: boolean) {
  await ctx.database.db
    .insert(featureFlags)
    .values({ name, enabled })
    .onConflictDoUpdate({ target: featureFlags.name, set: { enabled } });
}
