import { and, count, eq } from 'drizzle-orm';
import type { PageQuery, ReminderSchedule, reminderScheduleQuery } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { companyPreferences } from '../../db/schema-money-rules.js';
import { accounts } from '../../db/schema-receivables.js';
import {
  reminderSchedules as schedules,
  type StoredReminderStep,
} from '../../db/schema-reminders.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

type ScheduleFields = (typeof reminderScheduleQuery)['fields'];

const scheduleScope = (scope: DatasetScope) => and(inDataset(schedules, scope));

const columns = { id: schedules.id, name: schedules.name };

export async function defaultReminderScheduleId(executor: Executor, scope: DatasetScope) {
  const [row] = await executor
    .select({ id: companyPreferences.defaultReminderScheduleId })
    .from(companyPreferences)
    .where(and(inDataset(companyPreferences, scope)));
  return row?.id ?? null;
}

function toSchedule(
  row: typeof schedules.$inferSelect,
  defaultId: string | null,
): ReminderSchedule {
  return {
    id: row.id,
    name: row.name,
    steps: [...row.steps].sort((a, b) => a.days - b.days),
    isDefault: row.id === defaultId,
    createdOn: row.createdOn.toISOString(),
    updatedOn: row.updatedOn.toISOString(),
  };
}

export function createReminderSchedulesRepository() {
  return {
    async page(executor: Executor, scope: DatasetScope, query: PageQuery<ScheduleFields>) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: schedules.id });
      const where = and(scheduleScope(scope), compiled.where);
      const [rows, [total], defaultId] = await Promise.all([
        executor
          .select()
          .from(schedules)
          .where(where)
          .orderBy(...compiled.orderBy)
          .limit(compiled.limit)
          .offset(compiled.offset),
        executor.select({ n: count() }).from(schedules).where(where),
        defaultReminderScheduleId(executor, scope),
      ]);
      return { items: rows.map((row) => toSchedule(row, defaultId)), totalItems: total?.n ?? 0 };
    },

    async find(executor: Executor, scope: DatasetScope, id: string, lock = false) {
      const query = executor
        .select()
        .from(schedules)
        .where(and(scheduleScope(scope), eq(schedules.id, id)));
      const [row] = lock ? await query.for('update') : await query;
      if (!row) return null;
      return toSchedule(row, await defaultReminderScheduleId(executor, scope));
    },

    async insert(
      executor: Executor,
      scope: DatasetScope,
      id: string,
      values: { name: string; steps: StoredReminderStep[] },
    ) {
      await executor.insert(schedules).values({ ...scope, id, ...values });
    },

    async update(
      executor: Executor,
      scope: DatasetScope,
      id: string,
      values: { name: string; steps: StoredReminderStep[] },
    ) {
      await executor
        .update(schedules)
        .set({ ...values, updatedOn: new Date() })
        .where(and(scheduleScope(scope), eq(schedules.id, id)));
    },

    async remove(executor: Executor, scope: DatasetScope, id: string) {
      await executor.delete(schedules).where(and(scheduleScope(scope), eq(schedules.id, id)));
    },

    /** How many accounts chose the schedule, and whether it is the company default. */
    async uses(executor: Executor, scope: DatasetScope, id: string) {
      const [[accountUses], defaultId] = await Promise.all([
        executor
          .select({ n: count() })
          .from(accounts)
          .where(and(inDataset(accounts, scope), eq(accounts.reminderScheduleId, id))),
        defaultReminderScheduleId(executor, scope),
      ]);
      return { accounts: accountUses?.n ?? 0, isDefault: defaultId === id };
    },
  };
}
export type ReminderSchedulesRepository = ReturnType<typeof createReminderSchedulesRepository>;
