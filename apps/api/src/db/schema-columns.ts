import { customType, date, integer, numeric, timestamp, uuid } from 'drizzle-orm/pg-core';

// The column kinds of the receivables tables (spec 2). Amounts are numeric(19,4) (design §3); times
// carry milliseconds so keyset paging is exact.

export const money = (name: string) => numeric(name, { precision: 19, scale: 4 });
export const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
/** A calendar day, read and written as `YYYY-MM-DD` (days are not instants). */
export const day = (name: string) => date(name, { mode: 'string' });
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** Columns every company-owned row has, and the cascade from its company. */
export const scope = () => ({
  tenantId: uuid('tenant_id').notNull(),
  datasetId: integer('dataset_id').notNull(),
  id: uuid('id').notNull(),
});
