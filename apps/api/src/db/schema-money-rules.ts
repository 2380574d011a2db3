import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { datasets as datasetsRef } from './schema.js';

// spec 3 §3: settlement configuration groups, late-payment configurations and the company
// preferences that name the defaults; and the Bank Rate history the UK statutory engine reads.
// Company-owned tables lead their key with (tenant_id, dataset_id) and are protected by row-level
// security (migration 0008).

const money = (name: string) => numeric(name, { precision: 19, scale: 4 });
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** Bank of England Bank Rate changes: data an operator extends (`npm run admin -- set-bank-rate`). */
export const bankRates = pgTable('bank_rates', {
  effectiveFrom: date('effective_from', { mode: 'string' }).primaryKey(),
  /** Percent a year, e.g. 5.25. */
  rate: numeric('rate', { precision: 7, scale: 4 }).notNull(),
  createdOn: at('created_on').notNull().defaultNow(),
});

export const settlementConfigurationGroups = pgTable(
  'settlement_configuration_groups',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    customerEnabled: boolean('customer_enabled').notNull().default(false),
    transactionEnabled: boolean('transaction_enabled').notNull().default(false),
    createdOn: at('created_on').notNull().defaultNow(),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('settlement_configuration_groups_name_idx').on(t.tenantId, t.datasetId, t.name, t.id),
    foreignKey({
      name: 'settlement_configuration_groups_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);

export const settlementConfigurations = pgTable(
  'settlement_configurations',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    groupId: uuid('group_id').notNull(),
    type: text('type').notNull(),
    description: text('description'),
    dateType: text('date_type').notNull(),
    numberOfDays: integer('number_of_days').notNull(),
    percentageDiscount: numeric('percentage_discount', { precision: 7, scale: 4 }),
    amount: money('amount'),
    currency: text('currency'),
    /** { filterConfigurations: [...] } (spec 3 §3 Filter group) */
    filterGroup: jsonb('filter_group').notNull().default({ filterConfigurations: [] }),
    createdOn: at('created_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('settlement_configurations_group_idx').on(
      t.tenantId,
      t.datasetId,
      t.groupId,
      t.createdOn,
    ),
    foreignKey({
      name: 'settlement_configurations_group_fk',
      columns: [t.tenantId, t.datasetId, t.groupId],
      foreignColumns: [
        settlementConfigurationGroups.tenantId,
        settlementConfigurationGroups.datasetId,
        settlementConfigurationGroups.id,
      ],
    }).onDelete('cascade'),
  ],
);

export const latePaymentConfigurations = pgTable(
  'late_payment_configurations',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    id: uuid('id').notNull(),
    feeGroupType: text('fee_group_type').notNull().default('LatePayment'),
    type: text('type').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull().default(true),
    gracePeriodInDays: integer('grace_period_in_days').notNull().default(0),
    recurringPeriodInDays: integer('recurring_period_in_days'),
    percentage: numeric('percentage', { precision: 7, scale: 4 }),
    amount: money('amount'),
    applyCharges: boolean('apply_charges').notNull().default(true),
    createdOn: at('created_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId, t.id] }),
    index('late_payment_configurations_name_idx').on(t.tenantId, t.datasetId, t.name, t.id),
    foreignKey({
      name: 'late_payment_configurations_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);

/** spec 3 §3 Company preferences: so far the two defaults of the money rules. */
export const companyPreferences = pgTable(
  'company_preferences',
  {
    tenantId: uuid('tenant_id').notNull(),
    datasetId: integer('dataset_id').notNull(),
    defaultSettlementConfigurationGroupId: uuid('default_settlement_configuration_group_id'),
    defaultLatePaymentConfigurationId: uuid('default_late_payment_configuration_id'),
    // spec 3 §3 general preferences (migration 0016); null country reads as GB.
    defaultCountryId: integer('default_country_id'),
    defaultEditPaymentStatus: text('default_edit_payment_status', { enum: ['Disable', 'Allow'] })
      .notNull()
      .default('Disable'),
    allowTransactionCurrencyChange: text('allow_transaction_currency_change', {
      enum: ['Disable', 'Allow'],
    })
      .notNull()
      .default('Disable'),
    // spec 3 §3 payment request settings; a null unit means links do not expire.
    validUntilUnit: text('valid_until_unit', { enum: ['Day', 'Week', 'Month', 'Year'] }),
    validUntilQuantity: integer('valid_until_quantity').notNull().default(0),
    defaultUsageType: text('default_usage_type', { enum: ['Single', 'Multiple'] })
      .notNull()
      .default('Single'),
    // Migration 0033: the default reminder schedule and when the daily run goes out.
    defaultReminderScheduleId: uuid('default_reminder_schedule_id'),
    /** HH:MM in reminderTimeZone. */
    reminderTime: text('reminder_time').notNull().default('09:00'),
    /** An IANA zone. */
    reminderTimeZone: text('reminder_time_zone').notNull().default('Europe/London'),
    updatedOn: at('updated_on').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.datasetId] }),
    foreignKey({
      name: 'company_preferences_dataset_fk',
      columns: [t.tenantId, t.datasetId],
      foreignColumns: [datasetsRef.tenantId, datasetsRef.id],
    }).onDelete('cascade'),
  ],
);
