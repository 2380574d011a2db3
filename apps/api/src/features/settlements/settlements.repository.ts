import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type {
  PageQuery,
  SettlementConfiguration,
  SettlementConfigurationInput,
  SettlementGroup,
  settlementGroupQuery,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { accounts } from '../../db/schema-receivables.js';
import {
  companyPreferences,
  settlementConfigurationGroups as groups,
  settlementConfigurations as configurations,
} from '../../db/schema-money-rules.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

type GroupFields = (typeof settlementGroupQuery)['fields'];
type ConfigurationRow = typeof configurations.$inferSelect;

export interface GroupValues {
  name: string;
  description: string | null;
  customerEnabled: boolean;
  transactionEnabled: boolean;
}

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

export function toSettlementConfiguration(row: ConfigurationRow): SettlementConfiguration {
  return {
    id: row.id,
    type: row.type as SettlementConfiguration['type'],
    description: row.description,
    dateType: row.dateType as SettlementConfiguration['dateType'],
    numberOfDays: row.numberOfDays,
    percentageDiscount: numberOrNull(row.percentageDiscount),
    amount: numberOrNull(row.amount),
    currency: row.currency,
    filterGroup: row.filterGroup as SettlementConfiguration['filterGroup'],
  };
}

function configurationValues(input: SettlementConfigurationInput) {
  return {
    type: input.type,
    description: input.description,
    dateType: input.dateType,
    numberOfDays: input.numberOfDays,
    percentageDiscount:
      input.type === 'PercentageDiscount' && input.percentageDiscount != null
        ? String(input.percentageDiscount)
        : null,
    amount:
      input.type !== 'PercentageDiscount' && input.amount != null ? String(input.amount) : null,
    currency: input.currency ?? null,
    filterGroup: input.filterGroup,
  };
}

const groupScope = (scope: DatasetScope) => and(inDataset(groups, scope));
const configurationScope = (scope: DatasetScope) => and(inDataset(configurations, scope));

const columns = { id: groups.id, name: groups.name, description: groups.description };

async function defaultGroupId(executor: Executor, scope: DatasetScope) {
  const [row] = await executor
    .select({ id: companyPreferences.defaultSettlementConfigurationGroupId })
    .from(companyPreferences)
    .where(and(inDataset(companyPreferences, scope)));
  return row?.id ?? null;
}

async function withConfigurations(
  executor: Executor,
  scope: DatasetScope,
  rows: (typeof groups.$inferSelect)[],
): Promise<SettlementGroup[]> {
  if (rows.length === 0) return [];
  const [configurationRows, defaultId] = await Promise.all([
    executor
      .select()
      .from(configurations)
      .where(
        and(
          configurationScope(scope),
          inArray(
            configurations.groupId,
            rows.map((row) => row.id),
          ),
        ),
      )
      .orderBy(asc(configurations.createdOn), asc(configurations.id)),
    defaultGroupId(executor, scope),
  ]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    customerEnabled: row.customerEnabled,
    transactionEnabled: row.transactionEnabled,
    isDefault: row.id === defaultId,
    configurations: configurationRows
      .filter((configuration) => configuration.groupId === row.id)
      .map(toSettlementConfiguration),
  }));
}

async function readSettlementGroupsPage(
  executor: Executor,
  scope: DatasetScope,
  query: PageQuery<GroupFields>,
) {
  const compiled = compilePageQuery(query, { columns, tieBreaker: groups.id });
  const where = and(groupScope(scope), compiled.where);
  const rows = await executor
    .select()
    .from(groups)
    .where(where)
    .orderBy(...compiled.orderBy)
    .limit(compiled.limit)
    .offset(compiled.offset);
  const [total] = await executor.select({ n: count() }).from(groups).where(where);
  return {
    items: await withConfigurations(executor, scope, rows),
    totalItems: total?.n ?? 0,
  };
}

async function findSettlementGroup(executor: Executor, scope: DatasetScope, id: string) {
  const rows = await executor
    .select()
    .from(groups)
    .where(and(groupScope(scope), eq(groups.id, id)));
  const [group] = await withConfigurations(executor, scope, rows);
  return group ?? null;
}

async function insertGroup(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  values: GroupValues,
) {
  await executor.insert(groups).values({ ...values, id, ...scope });
}

/** False when the company has no such group. */
async function updateGroup(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  values: GroupValues,
) {
  const rows = await executor
    .update(groups)
    .set({ ...values, updatedOn: new Date() })
    .where(and(groupScope(scope), eq(groups.id, id)))
    .returning({ id: groups.id });
  return rows.length > 0;
}

async function deleteGroup(executor: Executor, scope: DatasetScope, id: string) {
  const rows = await executor
    .delete(groups)
    .where(and(groupScope(scope), eq(groups.id, id)))
    .returning({ id: groups.id });
  return rows.length > 0;
}

/** Takes the group's row lock, so a concurrent delete waits for this write. */
async function lockGroup(executor: Executor, scope: DatasetScope, id: string) {
  const rows = await executor
    .select({ id: groups.id })
    .from(groups)
    .where(and(groupScope(scope), eq(groups.id, id)))
    .for('update');
  return rows.length > 0;
}

/** How many accounts chose the group, and whether it is the company default. */
async function uses(executor: Executor, scope: DatasetScope, id: string) {
  const [[accountUses], defaultId] = await Promise.all([
    executor
      .select({ n: count() })
      .from(accounts)
      .where(and(inDataset(accounts, scope), eq(accounts.settlementConfigurationGroupId, id))),
    defaultGroupId(executor, scope),
  ]);
  return { accounts: accountUses?.n ?? 0, isDefault: defaultId === id };
}

async function insertConfiguration(
  executor: Executor,
  scope: DatasetScope,
  groupId: string,
  id: string,
  input: SettlementConfigurationInput,
) {
  await executor
    .insert(configurations)
    .values({ ...configurationValues(input), id, groupId, ...scope });
}

async function updateConfiguration(
  executor: Executor,
  scope: DatasetScope,
  groupId: string,
  id: string,
  input: SettlementConfigurationInput,
) {
  const rows = await executor
    .update(configurations)
    .set(configurationValues(input))
    .where(
      and(
        configurationScope(scope),
        eq(configurations.groupId, groupId),
        eq(configurations.id, id),
      ),
    )
    .returning({ id: configurations.id });
  return rows.length > 0;
}

async function deleteConfiguration(
  executor: Executor,
  scope: DatasetScope,
  groupId: string,
  id: string,
) {
  const rows = await executor
    .delete(configurations)
    .where(
      and(
        configurationScope(scope),
        eq(configurations.groupId, groupId),
        eq(configurations.id, id),
      ),
    )
    .returning({ id: configurations.id });
  return rows.length > 0;
}

/** The settlement groups' and configurations' reads and writes. */
export function createSettlementsRepository() {
  return {
    page: readSettlementGroupsPage,
    find: findSettlementGroup,
    insertGroup,
    updateGroup,
    deleteGroup,
    lockGroup,
    uses,
    insertConfiguration,
    updateConfiguration,
    deleteConfiguration,
  };
}
export type SettlementsRepository = ReturnType<typeof createSettlementsRepository>;
