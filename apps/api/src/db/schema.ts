import { sql } from 'drizzle-orm';
import {
  boolean,
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

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A merchant organisation (design §4). */
export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  /** The highest company id ever given, so a deleted company's id (in activities, keys) is never reused. */
  lastDatasetId: integer('last_dataset_id').notNull().default(1),
  createdAt: createdAt(),
});

/** Companies (spec 1 §3). Small integer ids per tenant; dataset 1 is the default host system. */
export const datasets = pgTable(
  'datasets',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: integer('id').notNull(),
    name: text('name').notNull(),
    shortName: text('short_name'),
    description: text('description'),
    status: text('status').notNull(),
    hostId: text('host_id').notNull(),
    customHostId: text('custom_host_id').notNull(),
    hostSystemName: text('host_system_name').notNull(),
    currency: text('currency').notNull(),
    rebuildStatus: text('rebuild_status').notNull().default('None'),
    lastSync: timestamp('last_sync', { withTimezone: true }),
    copyFromDatasetId: integer('copy_from_dataset_id'),
    type: text('type').notNull().default('Production'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const users = pgTable(
  'users',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    emailAddress: text('email_address').notNull(),
    /** trimmed, NFC, lower-case: case-insensitive and accent-aware (spec 1 §5). */
    emailNormalized: text('email_normalized').notNull(),
    displayName: text('display_name').notNull(),
    forename: text('forename'),
    surname: text('surname'),
    role: text('role').notNull(),
    settings: jsonb('settings').notNull(),
    /** The identity provider's issuer and subject, bound at first sign-in. */
    idpIssuer: text('idp_issuer'),
    idpSubject: text('idp_subject'),
    /**
     * With an external identity provider, an invited user binds through the invitation: the
     * sha-256 of its single-use token, and until when it works (migration 0023).
     */
    invitationTokenHash: text('invitation_token_hash'),
    invitationExpiresAt: timestamp('invitation_expires_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('users_id_key').on(t.id),
    // A sign-in maps an e-mail to exactly one user, so e-mails are unique across tenants.
    uniqueIndex('users_email_key').on(t.emailNormalized),
    uniqueIndex('users_tenant_display_name_key').on(t.tenantId, sql`lower(${t.displayName})`),
    uniqueIndex('users_idp_subject_key').on(t.idpIssuer, t.idpSubject),
  ],
);

/** Server-side browser sessions (design §5, OWASP ASVS V3). Only a hash of the cookie value is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    xsrfToken: text('xsrf_token').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_tenant_user_idx').on(t.tenantId, t.userId)],
);

/** Access keys and subscription keys for machine clients; only a hash and the prefix are stored. */
export const accessKeys = pgTable(
  'access_keys',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    datasetId: integer('dataset_id'),
    kind: text('kind').notNull(), // access | subscription
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    createdOn: timestamp('created_on', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('access_keys_hash_key').on(t.hash),
  ],
);

export const tenantSettings = pgTable(
  'tenant_settings',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);

/** Global feature flags (design §4); a missing row falls back to the configured default. */
export const featureFlags = pgTable('feature_flags', {
  name: text('name').primaryKey(),
  enabled: boolean('enabled').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per mutating call (design §3), successes and failures. Ids are UUIDv7: time ordered. */
export const auditActivities = pgTable(
  'audit_activities',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    datasetId: integer('dataset_id'),
    operation: text('operation').notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    userId: uuid('user_id'),
    userName: text('user_name'),
    accessKeyId: uuid('access_key_id'),
    status: integer('status').notNull(),
    /** A call that answered 2xx but did not do what it was asked (a provider declined): why. */
    errorMessage: text('error_message'),
    ipAddress: text('ip_address'),
    requestId: text('request_id'),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('audit_activities_dataset_idx').on(t.tenantId, t.datasetId, t.id),
    index('audit_activities_resource_idx').on(t.tenantId, t.resourceId),
  ],
);

/** Embedded identity provider: e-mail + password accounts (argon2id hashes). */
export const idpAccounts = pgTable(
  'idp_accounts',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('idp_accounts_email_key').on(t.emailNormalized)],
);

/** oidc-provider's models (sessions, grants, codes, interactions...), one table for all. */
export const idpModels = pgTable(
  'idp_models',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('idp_models_grant_idx').on(t.grantId),
    index('idp_models_uid_idx').on(t.uid),
    index('idp_models_user_code_idx').on(t.userCode),
    index('idp_models_expires_idx').on(t.expiresAt),
  ],
);

/** Signing keys and cookie secrets of the embedded provider, made at first start. */
export const idpSecrets = pgTable('idp_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Sign-in attempts, counted where every API process sees them: per address
 * (`ip:<where>:<address>`, a fixed window) and per account (`account:<sha-256 of the e-mail>`,
 * attempts since the last success and when the next may be tried). Read and written by the owner
 * before anyone is known, like sessions; no tenant's.
 */
export const signInThrottles = pgTable(
  'sign_in_throttles',
  {
    key: text('key').primaryKey(),
    attempts: integer('attempts').notNull(),
    /** When the count starts over: the address's window, or the account's quiet period. */
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
    /** The account's next attempt is not evaluated before this. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [index('sign_in_throttles_reset_idx').on(t.resetAt)],
);

/** Tables whose rows belong to one tenant and are protected by row-level security. */
export const tenantScopedTables = [
  'datasets',
  'users',
  'access_keys',
  'tenant_settings',
  'audit_activities',
] as const;
