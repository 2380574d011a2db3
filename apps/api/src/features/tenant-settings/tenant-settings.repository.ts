import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { tenantSettings } from '../../db/schema.js';
import { inTenant, type TenantScope } from '../../platform/scope.js';

/** One setting of the tenant, or null when it is not set. */
export async function tenantSetting(executor: Executor, scope: TenantScope, name: string) {
  const [row] = await executor
    .select()
    .from(tenantSettings)
    .where(and(inTenant(tenantSettings, scope), eq(tenantSettings.name, name)));
  return row ?? null;
}
