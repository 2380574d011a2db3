import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountReminderSettingsBody,
  accountReminderSettingsSchema,
  accountRemindersQuery,
  pageOf,
  pageQuerySchema,
  parsePageQuery,
  reminderMessages,
  reminderPreviewQuery,
  reminderPreviewSchema,
  reminderRunSchema,
  reminderSchema,
  reminderScheduleBody,
  reminderScheduleQuery,
  reminderScheduleSchema,
  runRemindersBody,
  uuidParam,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { accounts } from '../../db/schema-receivables.js';
import { reminderSchedules, reminders as reminderRows } from '../../db/schema-reminders.js';
import { requirePrincipal } from '../../platform/context.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { companyHas } from '../company-settings/index.js';
import { createReminderSchedulesRepository } from './reminder-schedules.repository.js';
import {
  createReminderSchedulesService,
  type ReminderSchedulesService,
} from './reminder-schedules.service.js';
import { toReminderBody, type Reminders } from './reminders.service.js';
import { type DatasetScope, datasetScopeOf, inDataset } from '../../platform/scope.js';

const tags = ['reminders'];
const base = '/api/v0/reminder-schedules';

async function accountRow(tx: Tx, scope: DatasetScope, id: string, lock = false) {
  const query = tx
    .select({
      id: accounts.id,
      disableReminders: accounts.disableReminders,
      reminderScheduleId: accounts.reminderScheduleId,
      remindersPaused: accounts.remindersPaused,
    })
    .from(accounts)
    .where(and(inDataset(accounts, scope), eq(accounts.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new NotFoundError(`Account ${id} was not found.`);
  return row;
}

const settingsOf = (row: Awaited<ReturnType<typeof accountRow>>) => ({
  reminderSchedule: row.disableReminders ? 'none' : (row.reminderScheduleId ?? 'default'),
  remindersPaused: row.remindersPaused,
});

/**
 * Reminder schedules (like settlement groups), the preview of a day's reminders, a run
 * (the day's reminders now, for the company or one account: Send now) and an account's reminders
 * and choice. Reads need no permission; schedules and runs need ConfigureSystemSettings, an
 * account's choice EditAccountSettings (it is one of the account's settings).
 */
/** What the reminders' route functions use. */
interface RemindersRoutesDeps {
  reminders: Reminders;
  schedules: ReminderSchedulesService;
}

export async function remindersRoutes(app: FastifyInstance, options: { reminders: Reminders }) {
  const deps: RemindersRoutesDeps = {
    reminders: options.reminders,
    schedules: createReminderSchedulesService({ repository: createReminderSchedulesRepository() }),
  };
  listReminderSchedules(app, deps);
  getReminderSchedule(app, deps);
  createReminderSchedule(app, deps);
  updateReminderSchedule(app, deps);
  deleteReminderSchedule(app, deps);
  previewReminders(app, deps);
  runReminders(app, deps);
  listAccountReminders(app);
  getAccountReminderSettings(app);
  updateAccountReminderSettings(app);
}

function listReminderSchedules(app: FastifyInstance, deps: RemindersRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    base,
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'Reminder schedules, paged (default sort: name)',
        querystring: pageQuerySchema,
        response: { 200: pageOf(reminderScheduleSchema) },
      },
    },
    async (request) => {
      const query = parsePageQuery(reminderScheduleQuery, request.query);
      return request.tenantRead((tx) => deps.schedules.page(tx, datasetScopeOf(request), query));
    },
  );
}

function getReminderSchedule(app: FastifyInstance, deps: RemindersRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${base}/:id`,
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'One reminder schedule',
        params: uuidParam,
        response: { 200: reminderScheduleSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) =>
        deps.schedules.get(tx, datasetScopeOf(request), request.params.id),
      ),
  );
}

function createReminderSchedule(app: FastifyInstance, deps: RemindersRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().post(
    base,
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'CreateReminderSchedule',
      },
      schema: {
        tags,
        summary: 'Create a reminder schedule',
        description:
          'Steps: `days` from the due date (negative before, positive after, −365 to 365, each once), a subject ' +
          'and a body with the placeholders {company}, {account}, {invoiceTable}, {totalOwed}, {lateFees} and ' +
          '{statementLink}. Limits: docs/api.md.',
        body: reminderScheduleBody,
        response: { 201: reminderScheduleSchema },
      },
    },
    async (request, reply) => {
      const created = await request.unitOfWork(async (tx) => {
        const schedule = await deps.schedules.create(tx, datasetScopeOf(request), request.body);
        request.auditResource = { type: 'ReminderSchedule', id: schedule.id };
        return schedule;
      }, 201);
      return reply.status(201).send(created);
    },
  );
}

function updateReminderSchedule(app: FastifyInstance, deps: RemindersRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().put(
    `${base}/:id`,
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'UpdateReminderSchedule',
      },
      schema: {
        tags,
        summary: 'Replace a reminder schedule’s name and steps',
        description:
          'A step that keeps its `id` keeps what it was sent for: an invoice is not sent it again.',
        params: uuidParam,
        body: reminderScheduleBody,
        response: { 200: reminderScheduleSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'ReminderSchedule', id: request.params.id };
      return request.unitOfWork((tx) =>
        deps.schedules.update(tx, datasetScopeOf(request), request.params.id, request.body),
      );
    },
  );
}

function deleteReminderSchedule(app: FastifyInstance, deps: RemindersRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().delete(
    `${base}/:id`,
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'DeleteReminderSchedule',
      },
      schema: {
        tags,
        summary: 'Delete a reminder schedule. Answers 204.',
        description: 'A schedule that is the company default or an account’s choice answers 409.',
        params: uuidParam,
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'ReminderSchedule', id: request.params.id };
      await request.unitOfWork(
        (tx) => deps.schedules.remove(tx, datasetScopeOf(request), request.params.id),
        204,
      );
      return reply.status(204).send();
    },
  );
}

function previewReminders(app: FastifyInstance, deps: RemindersRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/reminders/preview',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary:
          'What the reminder run of a day would send (default: tomorrow in the company’s zone)',
        description:
          'One item per account that would get a mail, with its invoices, the step each is at and the late fees ' +
          'to date; accounts held back (a disputed amount, reminders paused, no e-mail address) are counted in ' +
          '`skipped`. Nothing is sent or kept. Paged (`page`, `itemsPerPage` up to 1000).',
        querystring: reminderPreviewQuery,
        response: { 200: reminderPreviewSchema },
      },
    },
    async (request) =>
      request.tenantRead((tx) =>
        deps.reminders.preview(tx, datasetScopeOf(request), request.query),
      ),
  );
}

function runReminders(app: FastifyInstance, deps: RemindersRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/reminders/run',
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'RunReminders',
      },
      schema: {
        tags,
        summary:
          'Run the reminders of a day now (default: today in the company’s zone); with accountId, one account (Send now)',
        description:
          'Each account with invoices a step falls on or before gets one mail listing them all; a step is sent ' +
          'once per invoice, paid invoices are not listed, accounts with a disputed amount or paused reminders are ' +
          'skipped, and nothing is sent when the tenant does not allow customer notifications. The mails are ' +
          'kept (GET accounts/{id}/reminders) and go out through the outbox after the answer.',
        body: runRemindersBody,
        response: { 200: reminderRunSchema },
      },
    },
    async (request) => {
      const scope = datasetScopeOf(request);
      const principal = requirePrincipal(request.principal);
      const accountId = request.body.accountId ?? null;
      const answer = await request.unitOfWork(async (tx) => {
        if (accountId) {
          await accountRow(tx, scope, accountId);
          request.auditResource = { type: 'Account', id: accountId };
        }
        const day =
          request.body.date ?? (await deps.reminders.companyDay(tx, scope, new Date(), false));
        return deps.reminders.run((fn) => fn(tx), scope, {
          day,
          accountId,
          source: accountId ? 'SendNow' : 'Schedule',
          actor: {
            userId: principal.userId ?? null,
            userName: principal.name ?? 'Access key',
            accessKeyId: principal.accessKeyId ?? null,
            ipAddress: request.ip,
            requestId: String(request.id),
          },
        });
      });
      if (answer.reminders > 0) await deps.reminders.nudgeOutbox();
      return answer;
    },
  );
}

function listAccountReminders(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/accounts/:id/reminders',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The reminders sent to an account, newest first',
        params: uuidParam,
        querystring: accountRemindersQuery,
        response: { 200: pageOf(reminderSchema) },
      },
    },
    async (request) => {
      const scope = datasetScopeOf(request);
      const { page, itemsPerPage } = request.query;
      return request.tenantRead(async (tx) => {
        await accountRow(tx, scope, request.params.id);
        const where = and(
          inDataset(reminderRows, scope),
          eq(reminderRows.accountId, request.params.id),
        );
        const [rows, [total]] = await Promise.all([
          tx
            .select()
            .from(reminderRows)
            .where(where)
            .orderBy(desc(reminderRows.createdOn), desc(reminderRows.id))
            .limit(itemsPerPage)
            .offset((page - 1) * itemsPerPage),
          tx.select({ n: count() }).from(reminderRows).where(where),
        ]);
        return { items: rows.map(toReminderBody), totalItems: total?.n ?? 0 };
      });
    },
  );
}

function getAccountReminderSettings(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/accounts/:id/reminder-settings',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: "An account's reminder schedule choice and whether its reminders are paused",
        params: uuidParam,
        response: { 200: accountReminderSettingsSchema },
      },
    },
    async (request) =>
      request.tenantRead(async (tx) =>
        settingsOf(await accountRow(tx, datasetScopeOf(request), request.params.id)),
      ),
  );
}

function updateAccountReminderSettings(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/v0/accounts/:id/reminder-settings',
    {
      config: {
        access: 'dataset',
        permission: 'EditAccountSettings',
        operation: 'UpdateAccountReminderSettings',
      },
      schema: {
        tags,
        summary:
          "Change an account's reminder schedule ('none', 'default' or a schedule id) or pause its reminders",
        params: uuidParam,
        body: accountReminderSettingsBody,
        response: { 200: accountReminderSettingsSchema },
      },
    },
    async (request) => {
      const scope = datasetScopeOf(request);
      request.auditResource = { type: 'Account', id: request.params.id };
      return request.unitOfWork(async (tx) => {
        await accountRow(tx, scope, request.params.id, true);
        const choice = request.body.reminderSchedule;
        const scheduleId = choice === 'none' || choice === 'default' ? null : choice;
        if (scheduleId && !(await companyHas(tx, scope, reminderSchedules, scheduleId)))
          throw new ValidationError({ reminderSchedule: [reminderMessages.scheduleNotFound] });
        await tx
          .update(accounts)
          .set({
            disableReminders: choice === 'none',
            reminderScheduleId: scheduleId,
            remindersPaused: request.body.remindersPaused,
            updatedOn: new Date(),
          })
          .where(and(inDataset(accounts, scope), eq(accounts.id, request.params.id)));
        return settingsOf(await accountRow(tx, scope, request.params.id));
      });
    },
  );
}

export default remindersRoutes;
