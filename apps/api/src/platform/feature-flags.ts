import { featureFlags } from '../db/schema.js';
import type { Database } from '../db/client.js';

/** Feature flags live in the database with defaults from configuration (design §4). */
export function createFeatureFlags(database: Database, defaults: Record<string, boolean>) {
  return {
    async all(): Promise<Record<string, boolean>> {
      const rows = await database.db.select().from(featureFlags);
      const flags = { ...defaults };
      for (const row of rows) flags[row.name] = row.enabled;
      return flags;
    },
    async set(name: string, enabled: boolean): Promise<void> {
      await database.db
        .insert(featureFlags)
        .values({ name, enabled })
        .onConflictDoUpdate({ target: featureFlags.name, set: { enabled, updatedAt: new Date() } });
    },
  };
}
export type FeatureFlagStore = ReturnType<typeof createFeatureFlags>;
