// Reminder run benchmark: the daily reminder run of one company with 100,000
// accounts, 10 % of them overdue, on PostgreSQL. Target: ≤ 60 s with flat memory (the mails are
// written to the outbox table, batch by batch, never held in memory).
//
//   npx tsx bench/reminders.ts                            # full size, PostgreSQL at BENCH_DATABASE_URL
//   BENCH_ACCOUNTS=5000 npx tsx bench/reminders.ts        # a small run
//   BENCH_SEND=500 npx tsx bench/reminders.ts             # then mail 500 of them to a mail drop folder
//   npx tsx bench/reminders.ts -- --rebuild               # drops and rebuilds its database
//
// One company: BENCH_ACCOUNTS accounts with an e-mail address and three invoices each, due in the
// next two months; every tenth account has two of them overdue (3 and 12 days). A schedule of steps
// 1, 7 and 14 days after the due date is the company default. The run is the daily job's own
// (createReminders().runScheduled), with the real statement link per mail, the steps, the audit
// activities and the outbox rows. What a previous run wrote is removed first, so each run is alike.
// Reported: the run's time, the reminders and invoices written, the process's RSS before, at its
// peak during the run and after, and the JS heap's peak.
import pg from 'pg';
import pino from 'pino';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { openPostgres, type Database } from '../apps/api/src/db/client.js';
import { createTenant } from '../apps/api/src/features/tenants/tenants.service.js';
import {
  createReminders,
  localDayAndTime,
} from '../apps/api/src/features/reminders/reminders.service.js';
import { issueStatementLink } from '../apps/api/src/features/statements/statement-links.js';
import { createJobs } from '../apps/api/src/platform/jobs.js';
import { createMailer } from '../apps/api/src/platform/mail.js';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const accounts = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const toSend = Number(process.env.BENCH_SEND ?? 0);
const rebuild = process.argv.includes('--rebuild');
const databaseName = `ledgerline_bench_reminders_${accounts}`;
const tenantName = 'Reminder Bench Ltd';
const targetSeconds = 60;

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

async function prepareDatabase() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists =
    (await admin.query('select 1 from pg_database where datname = $1', [databaseName])).rowCount === 1;
  if (exists && rebuild) await admin.query(`drop database ${databaseName} with (force)`);
  if (!exists || rebuild) await admin.query(`create database ${databaseName}`);
  await admin.end();
  const target = new URL(serverUrl);
  target.pathname = `/${databaseName}`;
  return target.toString();
}

/** Accounts, invoices, the schedule and the default, set-based. */
async function seedCompany(database: Database, tenantId: string) {
  await database.withTenant(tenantId, async (tx) => {
    // The foreign key checks of rows referring to rows inserted in the same transaction are planned
    // on an empty table's statistics (a scan of every account per invoice): the seed makes the
    // references right by construction, and replica mode, which only the owner may set, skips them.
    await tx.execute(sql`set local role none`);
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into accounts (tenant_id, dataset_id, id, account_reference, name, currency, email_addresses)
      select ${tenantId}::uuid, 1, gen_random_uuid(), 'ACC' || lpad(a::text, 7, '0'), 'Customer ' || a, 'GBP',
        jsonb_build_array(jsonb_build_object('emailAddress', 'acc' || a || '@bench.example', 'type', 'Accounts', 'isDefault', true))
      from generate_series(1, ${accounts}) a`);
    await tx.execute(sql`
      insert into transactions (tenant_id, dataset_id, id, account_id, transaction_reference, transaction_type,
        transaction_date, due_date, currency, transaction_amount)
      select a.tenant_id, 1, gen_random_uuid(), a.id, a.account_reference || '-' || i, 'Invoice',
        current_date - 30,
        case when substr(a.account_reference, 4)::integer % 10 = 0 and i <= 2
          then current_date - (case i when 1 then 3 else 12 end)
          else current_date + 5 + i * 10 end,
        'GBP', 100 + i
      from accounts a cross join generate_series(1, 3) i
      where a.tenant_id = ${tenantId}::uuid and a.dataset_id = 1`);
    await tx.execute(sql`
      insert into reminder_schedules (tenant_id, dataset_id, id, name, steps)
      values (${tenantId}::uuid, 1, gen_random_uuid(), 'Bench dunning', jsonb_build_array(
        jsonb_build_object('id', gen_random_uuid(), 'days', 1, 'subject', 'Overdue: {company}', 'body', 'Dear {account},' || chr(10) || chr(10) || '{invoiceTable}' || chr(10) || chr(10) || 'You owe {totalOwed} (late fees {lateFees}). {statementLink}'),
        jsonb_build_object('id', gen_random_uuid(), 'days', 7, 'subject', 'Second reminder: {company}', 'body', 'Dear {account}, {invoiceTable} {totalOwed} {statementLink}'),
        jsonb_build_object('id', gen_random_uuid(), 'days', 14, 'subject', 'Final reminder: {company}', 'body', 'Dear {account}, {invoiceTable} {totalOwed} {statementLink}')))`);
    await tx.execute(sql`
      insert into company_preferences (tenant_id, dataset_id, default_reminder_schedule_id, reminder_time_zone)
      select tenant_id, dataset_id, id, 'UTC' from reminder_schedules
      where tenant_id = ${tenantId}::uuid and dataset_id = 1
      on conflict (tenant_id, dataset_id) do update set default_reminder_schedule_id = excluded.default_reminder_schedule_id`);
  });
}

async function seed(url: string) {
  // Seeding 300,000 invoices in one statement takes longer than the server's default 60 s timeout.
  const database = await openPostgres({
    connectionString: url,
    poolSize: 4,
    statementTimeoutMs: 0,
    idleInTransactionTimeoutMs: 0,
  });
  await database.migrate();
  // A tenant whose seeding did not finish (no schedule) is removed and seeded again.
  await database.raw.query(
    `delete from tenants t where t.name = $1
      and not exists (select 1 from reminder_schedules s where s.tenant_id = t.id)`,
    [tenantName],
  );
  const found = await database.raw.query(
    `select t.id::text as id from tenants t
      where t.name = $1 and exists (select 1 from reminder_schedules s where s.tenant_id = t.id)`,
    [tenantName],
  );
  let tenantId = found.rows[0]?.id as string | undefined;
  if (!tenantId) {
    tenantId = (
      await createTenant(database, { name: tenantName, adminEmail: 'reminder-bench@example.com', adminName: 'B' })
    ).tenantId;
    const started = performance.now();
    await seedCompany(database, tenantId);
    const seeded = performance.now();
    await database.raw.query('vacuum analyze');
    log(
      `seeded ${accounts.toLocaleString('en-GB')} accounts and ${(accounts * 3).toLocaleString('en-GB')} invoices: ` +
        `${Math.round(seeded - started)} ms, vacuum analyze ${Math.round(performance.now() - seeded)} ms`,
    );
  } else {
    log('reusing the bench data (-- --rebuild to make it again)');
  }
  // What an earlier run wrote, so that this run finds every step unsent.
  await database.withTenant(tenantId, async (tx) => {
    await tx.execute(sql`delete from reminders where tenant_id = ${tenantId}::uuid`);
    await tx.execute(sql`delete from reminder_runs where tenant_id = ${tenantId}::uuid`);
    await tx.execute(sql`delete from statement_links where tenant_id = ${tenantId}::uuid`);
    await tx.execute(sql`delete from audit_activities where tenant_id = ${tenantId}::uuid and operation = 'SendReminder'`);
  });
  await database.raw.query('vacuum analyze reminders, reminder_invoice_steps, statement_links, audit_activities');
  return { database, tenantId };
}

async function main() {
  const url = await prepareDatabase();
  const { database, tenantId } = await seed(url);
  const logger = pino({ level: 'warn' }) as unknown as FastifyBaseLogger;
  const jobs = createJobs(database, logger);
  await jobs.start();
  const mailDrop = mkdtempSync(join(tmpdir(), 'ledgerline-bench-reminders-'));
  const reminders = createReminders({
    database,
    jobs,
    mailer: createMailer({ from: 'bench@ledgerline.local', dataDir: mailDrop, log: logger }),
    statementLink: (tx, scope, accountId) =>
      issueStatementLink(tx, { tenantId: scope.tenantId, datasetId: String(scope.datasetId) }, accountId, 'http://localhost:3000'),
    log: logger,
  });
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 50);
  const day = localDayAndTime('UTC', new Date()).day;
  const started = performance.now();
  const answer = await reminders.runScheduled({ tenantId, datasetId: 1, date: day });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = process.memoryUsage();
  if (!answer) throw new Error('the run of the day was already made');
  const [kept] = (
    await database.raw.query(
      `select count(*)::int as reminders, count(distinct account_id)::int as accounts from reminders where tenant_id = $1`,
      [tenantId],
    )
  ).rows as { reminders: number; accounts: number }[];
  log(
    `run of ${day}: ${answer.reminders.toLocaleString('en-GB')} reminders (${answer.invoices.toLocaleString('en-GB')} invoices) ` +
      `to ${kept!.accounts.toLocaleString('en-GB')} accounts of ${accounts.toLocaleString('en-GB')} in ${seconds.toFixed(1)} s ` +
      `(target ≤ ${targetSeconds} s)`,
  );
  log(
    `memory: RSS ${mb(before.rss)} before, peak ${mb(peakRss)} during, ${mb(after.rss)} after; ` +
      `JS heap ${mb(before.heapUsed)} before, peak ${mb(peakHeap)}`,
  );
  if (toSend > 0) {
    // The outbox mails what the run kept; BENCH_SEND of them, to a mail drop folder.
    const sendStarted = performance.now();
    await reminders.send(toSend);
    const sendSeconds = (performance.now() - sendStarted) / 1000;
    log(`outbox: ${readdirSync(join(mailDrop, 'mail')).length} mails written in ${sendSeconds.toFixed(1)} s`);
  }
  rmSync(mailDrop, { recursive: true, force: true });
  await jobs.stop();
  await database.close();
  if (kept!.reminders !== Math.floor(accounts / 10)) {
    log(`expected one reminder per overdue account (${Math.floor(accounts / 10)}), found ${kept!.reminders}`);
    process.exitCode = 1;
  }
  if (seconds > targetSeconds) {
    log('the run took longer than the target');
    process.exitCode = 1;
  }
}

await main();
