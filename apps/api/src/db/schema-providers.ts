import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { datasets } from './schema.js';

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A company's payment provider configurations (spec 3 §3). Credentials are one AES-256-GCM
 * sealed JSON document (platform/secrets.ts); settings and method configurations are plain JSON.
 * At most one configuration of a company is its default (spec 3 §4).
 */
export const paymentProviders = pgTable(
  'payment_providers',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    providerName: text('provider_name').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull(),
    displayPriority: integer('display_priority').notNull().default(0),
    isTest: boolean('is_test').notNull().default(false),
    isDefault: boolean('is_default').notNull().default(false),
    settings: jsonb('settings').notNull().default({}),
    /** `v1.<key id>.<iv>.<tag>.<ciphertext>` of the credentials' JSON; never leaves the server. */
    credentialsSealed: text('credentials_sealed').notNull(),
    paymentMethodConfigurations: jsonb('payment_method_configurations').notNull().default([]),
    createdOn: at('created_on').notNull().defaultNow(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('payment_providers_id_key').on(t.id),
    // spec 3 §5: a provider name is unique in its company (case-insensitively, as `name eq` finds it).
    uniqueIndex('payment_providers_name_key').on(t.tenantId, t.datasetId, sql`lower(${t.name})`),
    uniqueIndex('payment_providers_default_key')
      .on(t.tenantId, t.datasetId)
      .where(sql`${t.isDefault}`),
    index('payment_providers_name_idx').on(t.tenantId, t.datasetId, t.name, t.id),
    foreignKey({
      name: 'payment_providers_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasets.tenantId, datasets.id],
    }).onDelete('cascade'),
  ],
);

/**
 * What a provider said about a configuration rather than a payment: the Stripe and
 * GoCardless OAuth exchanges, account and creditor reads, Stripe deauthorisation, connection tests
 * and Opayo IP registration. The payload is the request as sent and the answer as received, with
 * every secret masked as in a payment's provider events (providers/exchange.ts).
 */
export const paymentProviderEvents = pgTable(
  'payment_provider_events',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    paymentProviderId: uuid('payment_provider_id').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    providerName: text('provider_name').notNull(),
    eventType: text('event_type').notNull(),
    recordType: text('record_type'),
    recordId: text('record_id'),
    status: text('status'),
    payload: text('payload').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    // The list: one configuration's events, newest first.
    index('payment_provider_events_list_idx').on(
      t.tenantId,
      t.datasetId,
      t.paymentProviderId,
      t.createdOn,
      t.id,
    ),
    foreignKey({
      name: 'payment_provider_events_provider_fk',
      columns: [t.tenantId, t.datasetId, t.paymentProviderId],
      foreignColumns: [paymentProviders.tenantId, paymentProviders.datasetId, paymentProviders.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The state of a Stripe Connect or GoCardless authorisation: issued by the
 * server, bound to the session (or access key) that started it, spent once, short-lived. Only the
 * state's SHA-256 is kept.
 */
export const providerOAuthStates = pgTable(
  'provider_oauth_states',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    providerName: text('provider_name').notNull(),
    paymentProviderId: uuid('payment_provider_id'),
    /** `session:<session id hash>` or `key:<access key id>`. */
    owner: text('owner').notNull(),
    stateHash: text('state_hash').notNull(),
    createdOn: at('created_on').notNull().defaultNow(),
    expiresOn: at('expires_on').notNull(),
    usedOn: at('used_on'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('provider_oauth_states_hash_idx').on(t.tenantId, t.datasetId, t.stateHash),
    foreignKey({
      name: 'provider_oauth_states_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasets.tenantId, datasets.id],
    }).onDelete('cascade'),
  ],
);
