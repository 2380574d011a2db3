import {
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { datasets as datasetsRef } from './schema.js';
import { accounts } from './schema-receivables.js';

// Account statement and pay many (migration 0032). Keys lead with (tenant_id,
// dataset_id) (design §4), rows cascade from their company and account, row-level security applies.

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A statement link of one account: the payer page of its open invoices. Only the SHA-256 of the
 * link's random token is kept (hex), unique across companies: the public page finds the link,
 * and so its company, from the token alone. `expiresOn` null: the link does not expire.
 */
export const statementLinks = pgTable(
  'statement_links',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    accountId: uuid('account_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    expiresOn: at('expires_on'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('statement_links_token_hash_key').on(t.tokenHash),
    index('statement_links_account_idx').on(t.tenantId, t.datasetId, t.accountId),
    foreignKey({
      name: 'statement_links_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'statement_links_account_fk',
      columns: [t.tenantId, t.datasetId, t.accountId],
      foreignColumns: [accounts.tenantId, accounts.datasetId, accounts.id],
    }).onDelete('cascade'),
  ],
);
