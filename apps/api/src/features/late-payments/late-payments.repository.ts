import { and, count, eq } from 'drizzle-orm';
import type { LatePaymentConfiguration, PageQuery, latePaymentQuery } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { accounts } from '../../db/schema-receivables.js';
import { latePaymentConfigurations as configurations } from '../../db/schema-money-rules.js';
import { readCompanyPreferences } from '../money-rules/index.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

type Fields = (typeof latePaymentQuery)['fields'];
type Row = typeof configurations.$inferSelect;

export interface LatePaymentValues {
  type: 'Uk' | 'Custom';
  name: string;
  description: string | null;
  enabled: boolean;
  gracePeriodInDays: number;
  applyCharges: boolean;
}

function toConfiguration(row: Row, defaultId: string | null): LatePaymentConfiguration {
  return {
    id: row.id,
    feeGroupType: 'LatePayment',
    type: row.type as LatePaymentConfiguration['type'],
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    gracePeriodInDays: row.gracePeriodInDays,
    recurringPeriodInDays: row.recurringPeriodInDays,
    percentage: row.percentage === null ? null : Number(row.percentage),
    amount: row.amount === null ? null : Number(row.amount),
    applyCharges: row.applyCharges,
    isDefault: row.id === defaultId,
  };
}

const inScope = (scope: DatasetScope) => and(inDataset(configurations, scope));
const columns = {
  id: configurations.id,
  name: configurations.name,
  description: configurations.description,
  gracePeriodInDays: configurations.gracePeriodInDays,
};

export function createLatePaymentsRepository() {
  const defaultId = async (executor: Executor, scope: DatasetScope) =>
    (await readCompanyPreferences(executor, scope)).defaultLatePaymentConfigurationId;

  return {
    async page(executor: Executor, scope: DatasetScope, query: PageQuery<Fields>) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: configurations.id });
      const where = and(inScope(scope), compiled.where);
      const [rows, [total], defaultConfiguration] = await Promise.all([
        executor
          .select()
          .from(configurations)
          .where(where)
          .orderBy(...compiled.orderBy)
          .limit(compiled.limit)
          .offset(compiled.offset),
        executor.select({ n: count() }).from(configurations).where(where),
        defaultId(executor, scope),
      ]);
      return {
        items: rows.map((row) => toConfiguration(row, defaultConfiguration)),
        totalItems: total?.n ?? 0,
      };
    },

    async find(executor: Executor, scope: DatasetScope, id: string, lock = false) {
      const query = executor
        .select()
        .from(configurations)
        .where(and(inScope(scope), eq(configurations.id, id)));
      const [row] = await (lock ? query.for('update') : query);
      return row ? toConfiguration(row, await defaultId(executor, scope)) : null;
    },

    async insert(executor: Executor, scope: DatasetScope, id: string, values: LatePaymentValues) {
      await executor.insert(configurations).values({ ...values, id, ...scope });
    },

    async update(executor: Executor, scope: DatasetScope, id: string, values: LatePaymentValues) {
      const rows = await executor
        .update(configurations)
        .set(values)
        .where(and(inScope(scope), eq(configurations.id, id)))
        .returning({ id: configurations.id });
      return rows.length > 0;
    },

    async remove(executor: Executor, scope: DatasetScope, id: string) {
      await executor.delete(configurations).where(and(inScope(scope), eq(configurations.id, id)));
    },

    async accountUses(executor: Executor, scope: DatasetScope, id: string) {
      const [row] = await executor
        .select({ n: count() })
        .from(accounts)
        .where(and(inDataset(accounts, scope), eq(accounts.latePaymentConfigurationGroupId, id)));
      return row?.n ?? 0;
    },
  };
}
export type LatePaymentsRepository = ReturnType<typeof createLatePaymentsRepository>;
