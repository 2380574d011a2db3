import {
  type AnyPgColumn,
  boolean,
  customType,
  foreignKey,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { datasets as datasetsRef } from './schema.js';

// spec 3: company settings of one company (dataset). Keys lead with (tenant_id, dataset_id)
// (design §4), rows cascade from their company, row-level security as 0006 (migration 0012).

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
const company = (t: { tenantId: AnyPgColumn; datasetId: AnyPgColumn }, name: string) =>
  foreignKey({
    name,
    columns: [t.tenantId, t.datasetId],
    foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
  }).onDelete('cascade');

/** spec 3 §3 Company settings › companyDetails; no row: nothing entered yet. */
export const companyDetails = pgTable(
  'company_details',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    name: text('name').notNull(),
    website: text('website'),
    taxCode: text('tax_code'),
    firstNames: text('first_names').notNull(),
    surname: text('surname').notNull(),
    email: text('email').notNull(),
    telephone: text('telephone'),
    address1: text('address1').notNull(),
    address2: text('address2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    postCode: text('post_code').notNull(),
    country: text('country').notNull(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId] }),
    company(t, 'company_details_dataset_fk'),
  ],
);

/** The company's logo (spec 3 Customisation); the bytes live in the database like documents. */
export const companyLogos = pgTable(
  'company_logos',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    fileName: text('file_name').notNull(),
    fileType: text('file_type').notNull(),
    fileSize: integer('file_size').notNull(),
    data: bytea('data').notNull(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId] }),
    company(t, 'company_logos_dataset_fk'),
  ],
);

/**
 * spec 3 §3 Notification recipient (User tab): a Ledgerline user or an e-mail address, with the
 * notifications switched on for it (`enabled`, names; every other one is off, spec 3 §3).
 */
export const notificationRecipients = pgTable(
  'notification_recipients',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    type: text('type').notNull(),
    userId: uuid('user_id'),
    emailAddress: text('email_address'),
    enabled: jsonb('enabled').$type<string[]>().notNull().default([]),
    createdOn: at('created_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    uniqueIndex('notification_recipients_id_key').on(t.id),
    company(t, 'notification_recipients_dataset_fk'),
  ],
);

/** Customer tab: a row only for a notification switched off (all are on by default, spec 3 §3). */
export const customerNotificationSettings = pgTable(
  'customer_notification_settings',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    notificationName: text('notification_name').notNull(),
    isEnabled: boolean('is_enabled').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.notificationName] }),
    company(t, 'customer_notification_settings_dataset_fk'),
  ],
);

/**
 * One row per mail of a notification event (the event, the notification, the address): a retried
 * job skips the addresses already sent, so one event never mails anyone twice.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    eventKey: text('event_key').notNull(),
    notificationName: text('notification_name').notNull(),
    emailAddress: text('email_address').notNull(),
    sentOn: at('sent_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({
      columns: [t.tenantId, t.datasetId, t.eventKey, t.notificationName, t.emailAddress],
    }),
    company(t, 'notification_deliveries_dataset_fk'),
  ],
);
