import { count } from 'drizzle-orm';
import type { tenantSettingNames } from '@ledgerline/contract';
import { defaultUserSetting } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import { datasets, tenantSettings, tenants, users } from '../../db/schema.js';
import { normalizeEmail } from '../../platform/crypto.js';

export interface NewTenant {
  name: string;
  adminEmail: string;
  adminName: string;
  currency?: string;
}

/** Settings a new tenant starts with; an operator changes them with `npm run admin`. */
const initialTenantSettings: Record<(typeof tenantSettingNames)[number], string> = {
  UsePayerSpaSite: 'false',
  AllowMultiplePaymentProviders: 'true',
  ShowBetaPaymentProviders: 'false',
  AllowLatePayments: 'true',
  AllowInternalNotifications: 'true',
  AllowCustomerNotifications: 'true',
};

/**
 * A tenant with its default company (dataset 1, the default host system, Active) and its first
 * administrator, in one transaction.
 */
export async function createTenant(database: Database, input: NewTenant) {
  const tenantId = uuidv7();
  const userId = uuidv7();
  await database.withTenant(tenantId, async (tx) => {
    await tx.insert(tenants).values({ id: tenantId, name: input.name });
    await tx.insert(datasets).values({
      tenantId,
      id: 1,
      name: input.name,
      status: 'Active',
      hostId: '1',
      customHostId: '1',
      hostSystemName: 'Default',
      currency: input.currency ?? 'GBP',
      type: 'Production',
    });
    await tx.insert(users).values({
      tenantId,
      id: userId,
      emailAddress: input.adminEmail.trim(),
      emailNormalized: normalizeEmail(input.adminEmail),
      displayName: input.adminName,
      role: 'Administrator',
      settings: defaultUserSetting,
    });
    await tx
      .insert(tenantSettings)
      .values(
        Object.entries(initialTenantSettings).map(([name, value]) => ({ tenantId, name, value })),
      );
  });
  return { tenantId, userId };
}

export async function tenantCount(database: Database): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(tenants);
  return row?.n ?? 0;
}
