import { and, asc, eq, sql, type Column } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { tenantSettings } from '../../db/schema.js';
import { accounts, settlementOffers } from '../../db/schema-receivables.js';
import {
  bankRates,
  companyPreferences,
  latePaymentConfigurations,
  settlementConfigurationGroups,
  settlementConfigurations,
} from '../../db/schema-money-rules.js';
import { createBankRateHistory, type BankRateChange } from './bank-rates.js';
import { toCalendarDate } from './calendar-date.js';
import type { AccountChoice, LatePaymentRule, MoneyRules, SettlementGroupRules } from './quote.js';
import type { ManualOffer, SettlementFilter, SettlementRule } from './settlement-match.js';

/**
 * `column = any($1::uuid[])`: one bound array for any number of ids, so a page of 1,000 is one
 * parameter and one plan, not a thousand placeholders (the values stay bound, never spliced).
 */
function anyOf(column: Column, ids: readonly string[]) {
  return sql`${column} = any(${`{${ids.join(',')}}`}::uuid[])`;
}

export interface MoneyRulesScope {
  tenantId: string;
  datasetId: number;
}

type ConfigurationRow = typeof settlementConfigurations.$inferSelect;

export function toSettlementRule(row: ConfigurationRow): SettlementRule {
  const filterGroup = row.filterGroup as { filterConfigurations?: SettlementFilter[] };
  return {
    id: row.id,
    type: row.type as SettlementRule['type'],
    description: row.description,
    dateType: row.dateType as SettlementRule['dateType'],
    numberOfDays: row.numberOfDays,
    percentageDiscount: row.percentageDiscount,
    amount: row.amount,
    currency: row.currency,
    filters: filterGroup.filterConfigurations ?? [],
  };
}

/** The Bank Rate history, oldest first. */
export async function readBankRates(executor: Executor): Promise<BankRateChange[]> {
  const rows = await executor.select().from(bankRates).orderBy(asc(bankRates.effectiveFrom));
  return rows.map((row) => ({ from: row.effectiveFrom, rate: row.rate }));
}

export async function readCompanyPreferences(executor: Executor, scope: MoneyRulesScope) {
  const [row] = await executor
    .select()
    .from(companyPreferences)
    .where(
      and(
        eq(companyPreferences.tenantId, scope.tenantId),
        eq(companyPreferences.datasetId, scope.datasetId),
      ),
    );
  return {
    defaultSettlementConfigurationGroupId: row?.defaultSettlementConfigurationGroupId ?? null,
    defaultLatePaymentConfigurationId: row?.defaultLatePaymentConfigurationId ?? null,
  };
}

/**
 * Every rule of a company, read once per request (issue 11: never per invoice): five small
 * statements whatever the number of invoices quoted.
 */
export async function loadMoneyRules(
  executor: Executor,
  scope: MoneyRulesScope,
): Promise<MoneyRules> {
  const groupScope = and(
    eq(settlementConfigurationGroups.tenantId, scope.tenantId),
    eq(settlementConfigurationGroups.datasetId, scope.datasetId),
  );
  const [groups, configurations, latePayments, preferences, allowLatePayments, rates] =
    await Promise.all([
      executor.select().from(settlementConfigurationGroups).where(groupScope),
      executor
        .select()
        .from(settlementConfigurations)
        .where(
          and(
            eq(settlementConfigurations.tenantId, scope.tenantId),
            eq(settlementConfigurations.datasetId, scope.datasetId),
          ),
        )
        .orderBy(asc(settlementConfigurations.createdOn)),
      executor
        .select()
        .from(latePaymentConfigurations)
        .where(
          and(
            eq(latePaymentConfigurations.tenantId, scope.tenantId),
            eq(latePaymentConfigurations.datasetId, scope.datasetId),
          ),
        ),
      readCompanyPreferences(executor, scope),
      executor
        .select({ value: tenantSettings.value })
        .from(tenantSettings)
        .where(
          and(
            eq(tenantSettings.tenantId, scope.tenantId),
            eq(tenantSettings.name, 'AllowLatePayments'),
          ),
        ),
      readBankRates(executor),
    ]);
  const settlementGroups = new Map<string, SettlementGroupRules>();
  for (const group of groups) {
    settlementGroups.set(group.id, {
      id: group.id,
      name: group.name,
      customerEnabled: group.customerEnabled,
      configurations: configurations
        .filter((configuration) => configuration.groupId === group.id)
        .map(toSettlementRule),
    });
  }
  const latePaymentRules = new Map<string, LatePaymentRule>(
    latePayments.map((row) => [
      row.id,
      {
        id: row.id,
        name: row.name,
        type: row.type as LatePaymentRule['type'],
        enabled: row.enabled,
        gracePeriodInDays: row.gracePeriodInDays,
        applyCharges: row.applyCharges,
      },
    ]),
  );
  return {
    settlementGroups,
    defaultSettlementGroupId: preferences.defaultSettlementConfigurationGroupId,
    latePaymentConfigurations: latePaymentRules,
    defaultLatePaymentConfigurationId: preferences.defaultLatePaymentConfigurationId,
    latePaymentsApplied: allowLatePayments[0]?.value === 'true',
    bankRates: createBankRateHistory(rates),
  };
}

/** spec 3 §4: 'none' when auto-apply is off, 'default' when no group is set, else the group. */
export function choiceOf(disabled: boolean, id: string | null): AccountChoice {
  if (disabled) return 'none';
  return id === null ? 'default' : { id };
}

/** The account choices of some accounts, by id: one statement. */
export async function readAccountChoices(
  executor: Executor,
  scope: MoneyRulesScope,
  accountIds: readonly string[],
) {
  const choices = new Map<string, { settlement: AccountChoice; latePayment: AccountChoice }>();
  if (accountIds.length === 0) return choices;
  const rows = await executor
    .select({
      id: accounts.id,
      disableAutoApplySettlements: accounts.disableAutoApplySettlements,
      settlementConfigurationGroupId: accounts.settlementConfigurationGroupId,
      disableLatePayments: accounts.disableLatePayments,
      latePaymentConfigurationGroupId: accounts.latePaymentConfigurationGroupId,
    })
    .from(accounts)
    .where(
      and(
        eq(accounts.tenantId, scope.tenantId),
        eq(accounts.datasetId, scope.datasetId),
        anyOf(accounts.id, [...new Set(accountIds)]),
      ),
    );
  for (const row of rows) {
    choices.set(row.id, {
      settlement: choiceOf(row.disableAutoApplySettlements, row.settlementConfigurationGroupId),
      latePayment: choiceOf(row.disableLatePayments, row.latePaymentConfigurationGroupId),
    });
  }
  return choices;
}

/** The manual offers (spec 2) of some transactions, by transaction id: one statement. */
export async function readManualOffers(
  executor: Executor,
  scope: MoneyRulesScope,
  transactionIds: readonly string[],
) {
  const offers = new Map<string, ManualOffer[]>();
  if (transactionIds.length === 0) return offers;
  const rows = await executor
    .select()
    .from(settlementOffers)
    .where(
      and(
        eq(settlementOffers.tenantId, scope.tenantId),
        eq(settlementOffers.datasetId, scope.datasetId),
        anyOf(settlementOffers.transactionId, transactionIds),
      ),
    );
  for (const row of rows) {
    const list = offers.get(row.transactionId) ?? [];
    list.push({
      id: row.id,
      type: row.type as ManualOffer['type'],
      status: row.status as ManualOffer['status'],
      description: row.description,
      validFrom: row.validFrom === null ? null : toCalendarDate(row.validFrom),
      validUntil: row.validUntil === null ? null : toCalendarDate(row.validUntil),
      currency: row.currency,
      amount: row.amount,
      percentageDiscount: row.percentageDiscount,
      priority: row.priority,
    });
    offers.set(row.transactionId, list);
  }
  return offers;
}
