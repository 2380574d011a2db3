import {
  reminderMessages,
  type PageQuery,
  type ReminderSchedule,
  type ReminderScheduleInput,
  type reminderScheduleQuery,
} from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import type { StoredReminderStep } from '../../db/schema-reminders.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { ReminderSchedulesRepository } from './reminder-schedules.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

type ScheduleFields = (typeof reminderScheduleQuery)['fields'];

/**
 * Steps as stored: a step keeps its id when the body names one the schedule already has (so an
 * invoice that step was sent for is not sent it again); any other step gets a new id.
 */
function storedSteps(
  input: ReminderScheduleInput,
  known: ReadonlySet<string>,
): StoredReminderStep[] {
  return input.steps
    .map((step) => ({
      id: step.id && known.has(step.id) ? step.id : uuidv7(),
      days: step.days,
      subject: step.subject,
      body: step.body,
    }))
    .sort((a, b) => a.days - b.days);
}

/** Reminder schedules of a company; another company's or tenant's is not found. */
export function createReminderSchedulesService(deps: { repository: ReminderSchedulesRepository }) {
  const { repository } = deps;
  const notFound = (id: string) => new NotFoundError(`Reminder schedule ${id} was not found.`);

  async function get(tx: Tx, scope: DatasetScope, id: string): Promise<ReminderSchedule> {
    const schedule = await repository.find(tx, scope, id);
    if (!schedule) throw notFound(id);
    return schedule;
  }

  return {
    page: (tx: Tx, scope: DatasetScope, query: PageQuery<ScheduleFields>) =>
      repository.page(tx, scope, query),

    get,

    async create(tx: Tx, scope: DatasetScope, input: ReminderScheduleInput) {
      const id = uuidv7();
      await repository.insert(tx, scope, id, {
        name: input.name,
        steps: storedSteps(input, new Set()),
      });
      return get(tx, scope, id);
    },

    async update(tx: Tx, scope: DatasetScope, id: string, input: ReminderScheduleInput) {
      const current = await repository.find(tx, scope, id, true);
      if (!current) throw notFound(id);
      await repository.update(tx, scope, id, {
        name: input.name,
        steps: storedSteps(input, new Set(current.steps.map((step) => step.id))),
      });
      return get(tx, scope, id);
    },

    /** A schedule that is the company default or an account's choice is refused (409). */
    async remove(tx: Tx, scope: DatasetScope, id: string) {
      if (!(await repository.find(tx, scope, id, true))) throw notFound(id);
      const uses = await repository.uses(tx, scope, id);
      const where = [
        ...(uses.isDefault ? ['it is the company default'] : []),
        ...(uses.accounts > 0
          ? [`${uses.accounts} ${uses.accounts === 1 ? 'account uses' : 'accounts use'} it`]
          : []),
      ];
      if (where.length > 0)
        throw new ConflictError(
          `${reminderMessages.scheduleInUse}: ${where.join(' and ')}. Choose another schedule there first.`,
          'reminderScheduleInUse',
        );
      await repository.remove(tx, scope, id);
    },
  };
}
export type ReminderSchedulesService = ReturnType<typeof createReminderSchedulesService>;
