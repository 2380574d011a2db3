import { and, eq, sql } from 'drizzle-orm';
import type { Reminder, ReminderPreview, ReminderRun } from '@ledgerline/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor, Tx } from '../../db/client.js';
import { reminderRuns, reminders } from '../../db/schema-reminders.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import { readPreferences } from '../company-settings/index.js';
import { companyMail, readMailCompany, type MailCompany } from '../notifications/index.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import {
  lockCompanyRun,
  planBatch,
  readRunContext,
  toInvoiceBody,
  toPreviewItem,
  toTotalBody,
  writeBatch,
  type ReminderActor,
  type StatementLinkIssuer,
} from './reminders.engine.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

export const reminderRunQueue = 'reminders.run';
export const reminderSweepQueue = 'reminders.sweep';
export const reminderSendQueue = 'reminders.send';

/** Reminders claimed per round of the outbox. */
const sendBatch = 50;
/** A reminder claimed this long ago by a sender that never finished is claimed again. */
const claimMinutes = 15;

/** The day and the time of day (HH:MM) at `now` in `zone`. */
export function localDayAndTime(zone: string, now: Date): { day: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
  };
}

export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

export function toReminderBody(row: typeof reminders.$inferSelect): Reminder {
  return {
    id: row.id,
    accountId: row.accountId,
    scheduleId: row.scheduleId,
    runOn: row.runOn,
    source: row.source as Reminder['source'],
    emailAddress: row.emailAddress,
    subject: row.subject,
    body: row.body,
    statementUrl: row.statementUrl,
    invoices: row.invoices.map(toInvoiceBody),
    totals: row.totals.map(toTotalBody),
    status: row.status as Reminder['status'],
    errorMessage: row.errorMessage,
    createdOn: row.createdOn.toISOString(),
    sentOn: row.sentOn?.toISOString() ?? null,
  };
}

/** Runs a function in a transaction: the request's own, or one of its own per batch (the job). */
type InTransaction = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/**
 * The reminder runs (the daily job at the company's time in its zone, POST
 * reminders/run, Send now), the preview, and the outbox that mails what a run kept.
 */
export function createReminders(deps: {
  database: Database;
  jobs: Jobs;
  mailer: Mailer;
  /** Issues an account's statement link for a mail; null until the statements feature is wired. */
  statementLink: StatementLinkIssuer | null;
  log: FastifyBaseLogger;
}) {
  const { database, jobs, mailer, log } = deps;

  /** The day a preview or run is about when none is given: today, or tomorrow, in the company's zone. */
  async function companyDay(executor: Executor, scope: DatasetScope, now: Date, plusOne: boolean) {
    const preferences = await readPreferences(executor as Tx, scope);
    const { day } = localDayAndTime(preferences.reminderTimeZone, now);
    return plusOne ? nextDay(day) : day;
  }

  async function preview(
    executor: Executor,
    scope: DatasetScope,
    input: { date?: string; page: number; itemsPerPage: number },
  ): Promise<ReminderPreview> {
    const day = input.date ?? (await companyDay(executor, scope, new Date(), true));
    const context = await readRunContext(executor, scope, day, null);
    const skipped = { disputed: 0, paused: 0, noEmailAddress: 0 };
    const from = (input.page - 1) * input.itemsPerPage;
    const items: ReminderPreview['items'] = [];
    let totalItems = 0;
    let after: string | null = null;
    if (context.allowed && context.schedules.size > 0) {
      for (;;) {
        const batch = await planBatch(executor, scope, context, after);
        for (const planned of batch.planned) {
          if (totalItems >= from && items.length < input.itemsPerPage)
            items.push(toPreviewItem(planned, context));
          totalItems += 1;
        }
        skipped.disputed += batch.skipped.disputed;
        skipped.paused += batch.skipped.paused;
        skipped.noEmailAddress += batch.skipped.noEmailAddress;
        if (batch.last === null) break;
        after = batch.last;
      }
    }
    return { date: day, customerNotificationsAllowed: context.allowed, items, totalItems, skipped };
  }

  /**
   * Runs the reminders of `day` (the whole company, or one account), batch by batch, each batch
   * planned and kept under the company's run lock in one transaction of `inTransaction`.
   */
  async function run(
    inTransaction: InTransaction,
    scope: DatasetScope,
    input: {
      day: string;
      accountId: string | null;
      source: 'Schedule' | 'SendNow';
      actor: ReminderActor;
    },
    afterBatch: () => Promise<void> = async () => {},
  ): Promise<ReminderRun> {
    const context = await inTransaction((tx) =>
      readRunContext(tx, scope, input.day, input.accountId),
    );
    const answer: ReminderRun = {
      date: input.day,
      customerNotificationsAllowed: context.allowed,
      reminders: 0,
      invoices: 0,
      reminderIds: [],
    };
    if (!context.allowed || context.schedules.size === 0) return answer;
    let after: string | null = null;
    for (;;) {
      const batch = await inTransaction(async (tx) => {
        await lockCompanyRun(tx, scope);
        const planned = await planBatch(tx, scope, context, after);
        const written = await writeBatch(
          tx,
          scope,
          context,
          planned.planned,
          input.source,
          input.actor,
          deps.statementLink,
        );
        return { last: planned.last, ...written };
      });
      answer.reminders += batch.ids.length;
      answer.invoices += batch.invoices;
      for (const id of batch.ids) if (answer.reminderIds.length < 100) answer.reminderIds.push(id);
      if (batch.ids.length > 0) await afterBatch();
      if (batch.last === null) break;
      after = batch.last;
    }
    return answer;
  }

  /** After the commit that kept reminders (style.md §7): the outbox mails them. */
  const nudgeOutbox = () => jobs.send(reminderSendQueue, {});

  /** The scheduled run of a company's day: once per day; a run cut short resumes where it was. */
  async function runScheduled(job: { tenantId: string; datasetId: number; date: string }) {
    const scope = { tenantId: job.tenantId, datasetId: job.datasetId };
    const begun = await database.withTenant(scope.tenantId, async (tx) => {
      await tx
        .insert(reminderRuns)
        .values({ ...scope, runOn: job.date })
        .onConflictDoNothing();
      const [row] = await tx
        .select({ finishedOn: reminderRuns.finishedOn })
        .from(reminderRuns)
        .where(and(inDataset(reminderRuns, scope), eq(reminderRuns.runOn, job.date)));
      return row !== undefined && row.finishedOn === null;
    });
    if (!begun) return null;
    const answer = await run(
      (fn) => database.withTenant(scope.tenantId, fn),
      scope,
      {
        day: job.date,
        accountId: null,
        source: 'Schedule',
        actor: {
          userId: null,
          userName: 'Reminder schedule',
          accessKeyId: null,
          ipAddress: null,
          requestId: null,
        },
      },
      nudgeOutbox,
    );
    await database.withTenant(scope.tenantId, (tx) =>
      tx
        .update(reminderRuns)
        .set({
          finishedOn: new Date(),
          reminders: sql`${reminderRuns.reminders} + ${answer.reminders}`,
        })
        .where(and(inDataset(reminderRuns, scope), eq(reminderRuns.runOn, job.date))),
    );
    log.info({ ...scope, date: job.date, reminders: answer.reminders }, 'reminder run done');
    return answer;
  }

  /**
   * Every few minutes: the companies with reminder schedules whose time of day has come in their
   * own zone and whose run of that day has not been made get one (a job each).
   */
  async function sweep(now = new Date()) {
    const companies = (
      (await database.db.execute(sql`
        select s.tenant_id as "tenantId", s.dataset_id as "datasetId",
          coalesce(p.reminder_time, '09:00') as time,
          coalesce(p.reminder_time_zone, 'Europe/London') as zone
        from (select distinct tenant_id, dataset_id from reminder_schedules) s
        left join company_preferences p on p.tenant_id = s.tenant_id and p.dataset_id = s.dataset_id`)) as unknown as {
        rows: { tenantId: string; datasetId: number; time: string; zone: string }[];
      }
    ).rows;
    const due: { tenantId: string; datasetId: number; date: string }[] = [];
    for (const company of companies) {
      const local = localDayAndTime(company.zone, now);
      if (local.time < company.time) continue;
      const [done] = await database.db
        .select({ finishedOn: reminderRuns.finishedOn })
        .from(reminderRuns)
        .where(
          and(
            inDataset(reminderRuns, {
              tenantId: company.tenantId,
              datasetId: Number(company.datasetId),
            }),
            eq(reminderRuns.runOn, local.day),
          ),
        );
      if (done?.finishedOn) continue;
      due.push({
        tenantId: company.tenantId,
        datasetId: Number(company.datasetId),
        date: local.day,
      });
    }
    for (const job of due)
      await jobs.send(reminderRunQueue, job, {
        singletonKey: `${job.tenantId}:${job.datasetId}:${job.date}`,
      });
    return due;
  }

  /** Claims reminders to mail (any tenant's: the owner's connection), oldest first. */
  async function claim(): Promise<(typeof reminders.$inferSelect)[]> {
    const result = (await database.db.execute(sql`
      update reminders r set status = 'Sending', claimed_on = now()
      from (select tenant_id, dataset_id, id from reminders
            where status = 'Queued'
               or (status = 'Sending' and claimed_on < now() - make_interval(mins => ${claimMinutes}))
            order by id limit ${sendBatch} for update skip locked) c
      where r.tenant_id = c.tenant_id and r.dataset_id = c.dataset_id and r.id = c.id
      returning r.tenant_id, r.dataset_id, r.id`)) as unknown as {
      rows: { tenant_id: string; dataset_id: number; id: string }[];
    };
    const claimed: (typeof reminders.$inferSelect)[] = [];
    for (const row of result.rows) {
      const [found] = await database.withTenant(row.tenant_id, (tx) =>
        tx
          .select()
          .from(reminders)
          .where(
            and(
              inDataset(reminders, { tenantId: row.tenant_id, datasetId: Number(row.dataset_id) }),
              eq(reminders.id, row.id),
            ),
          ),
      );
      if (found) claimed.push(found);
    }
    return claimed;
  }

  /** The outbox: mails every kept reminder once it is committed (at most `limit`); answers how many. */
  async function send(limit = Number.POSITIVE_INFINITY): Promise<number> {
    let mailed = 0;
    while (mailed < limit) {
      const claimed = await claim();
      if (claimed.length === 0) break;
      const companies = new Map<string, MailCompany>();
      for (const reminder of claimed) {
        const scope = { tenantId: reminder.tenantId, datasetId: reminder.datasetId };
        const key = `${scope.tenantId}:${scope.datasetId}`;
        let company = companies.get(key);
        if (!company) {
          company = await database.withTenant(scope.tenantId, (tx) => readMailCompany(tx, scope));
          companies.set(key, company);
        }
        const frame = companyMail(company, [], null);
        const [top, bottom] = frame.html.split('<hr>');
        let failure: string | null = null;
        try {
          await mailer.send({
            to: reminder.emailAddress,
            subject: reminder.subject,
            text: `${reminder.body}\n${frame.text}`,
            html: `${top ?? ''}${reminder.html}<hr>${bottom ?? ''}`,
            ...(frame.attachments ? { attachments: frame.attachments } : {}),
          });
        } catch (error) {
          failure = error instanceof Error ? error.message : String(error);
          log.warn({ ...scope, reminderId: reminder.id, err: error }, 'reminder mail failed');
        }
        await database.withTenant(scope.tenantId, async (tx) => {
          const [updated] = await tx
            .update(reminders)
            .set(
              failure === null
                ? { status: 'Sent', sentOn: new Date(), errorMessage: null }
                : { status: 'Failed', errorMessage: failure.slice(0, 500) },
            )
            .where(and(inDataset(reminders, scope), eq(reminders.id, reminder.id)))
            .returning();
          if (updated && failure === null)
            await recordWebhookEvent(tx, scope, {
              type: 'reminder.sent',
              recordType: 'Account',
              recordId: updated.accountId,
              payload: toReminderBody(updated),
            });
        });
        if (failure === null) mailed += 1;
      }
    }
    return mailed;
  }

  return {
    preview,
    run,
    runScheduled,
    sweep,
    send,
    nudgeOutbox,
    companyDay,
    async register() {
      jobs.nudgeQueue(reminderSendQueue);
      await jobs.work(reminderSendQueue, async () => {
        const mailed = await send();
        if (mailed > 0) log.info({ mailed }, 'reminders mailed');
      });
      await jobs.work<{ tenantId: string; datasetId: number; date: string }>(
        reminderRunQueue,
        async (job) => {
          await runScheduled(job);
        },
      );
      await jobs.work(reminderSweepQueue, async () => {
        await sweep();
      });
      await jobs.schedule(reminderSweepQueue, '*/5 * * * *');
      // Reminders a stopped process left in the outbox go out now.
      await nudgeOutbox();
    },
  };
}
export type Reminders = ReturnType<typeof createReminders>;
