import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { reminderMessages as m } from '@ledgerline/contract';
import { auditActivities, tenantSettings, users } from '../../db/schema.js';
import { reminders as reminderRows } from '../../db/schema-reminders.js';
import { webHookEvents } from '../../db/schema-web-hooks.js';
import {
  createReminders,
  localDayAndTime,
  reminderSendQueue,
} from './reminders.service.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { day } from '../../../test/fixtures/pay.js';
import { waitFor } from '../../../test/wait.js';

/*
 * Reminder schedules. A schedule of steps 3 days before, 1 and 7 days after the due date
 * is the company default; account A owes four invoices at different points of it. The run mails A
 * once listing every invoice a step falls on or before; a step goes out once per invoice; a paid
 * invoice drops out; accounts with a disputed amount or paused reminders are skipped; the daily
 * job runs at the company's time in its own zone; the mails come from the mail drop.
 */

let ctx: TestContext;
let admin: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let standard: SignedIn;
const dataDir = mkdtempSync(join(tmpdir(), 'ledgerline-reminders-'));
const mailDrop = join(dataDir, 'mail');
const accountIds: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' };
let scheduleId = '';
/**
 * The company's run is at 23:59 in a zone where it is not yet 20:00: the app's own five-minute
 * sweep (real time) then never runs the company while these tests drive the runs themselves.
 */
const quietZone = ['Etc/GMT+12', 'UTC', 'Asia/Tokyo'].find(
  (zone) => localDayAndTime(zone, new Date()).time < '20:00',
)!;

/** The instant at which the local time in `zone` is `time` on `localDay`. */
function instantAt(zone: string, localDay: string, time: string): Date {
  const base = new Date(`${localDay}T${time}:00Z`).getTime();
  for (let minutes = -15 * 60; minutes <= 15 * 60; minutes += 15) {
    const instant = new Date(base + minutes * 60_000);
    const local = localDayAndTime(zone, instant);
    if (local.day === localDay && local.time === time) return instant;
  }
  throw new Error(`No instant is ${localDay} ${time} in ${zone}`);
}

const call = (
  who: SignedIn,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    ...(payload ? { payload } : {}),
  });

async function ok(method: 'POST' | 'PUT', url: string, payload: object) {
  const response = await call(admin, method, url, payload);
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

async function invoice(accountId: string, reference: string, amount: number, due: string, allocated = 0) {
  return (
    await ok('POST', 'transactions?match-existing=true', {
      accountId,
      transactionReference: reference,
      transactionType: 'Invoice',
      transactionDate: day(-60),
      dueDate: due,
      currency: 'GBP',
      transactionAmount: amount,
      allocatedAmount: allocated,
    })
  ).id as string;
}

/** The .eml files of the mail drop, quoted-printable soft breaks and '=' undone. */
const mails = () =>
  existsSync(mailDrop)
    ? readdirSync(mailDrop)
        .sort()
        .map((file) => readFileSync(join(mailDrop, file), 'utf8').replace(/=\n/g, '').replace(/=3D/g, '='))
    : [];

const outboxEmpty = () =>
  waitFor(async () => {
    const { rows } = await ctx.database.raw.query(
      `select count(*)::int as waiting from reminders where status in ('Queued', 'Sending')`,
    );
    return rows[0]!.waiting === 0 ? true : undefined;
  });

const steps = [
  { days: -3, subject: 'Coming up: {company} invoices', body: 'Dear {account},\n\n{invoiceTable}\n\nTotal: {totalOwed}' },
  {
    days: 1,
    subject: '{account}: overdue invoices from {company}',
    body: 'Dear {account},\n\nThese invoices are overdue:\n\n{invoiceTable}\n\nYou owe {totalOwed}, late fees {lateFees}.\n\n{statementLink}',
  },
  { days: 7, subject: 'Final reminder from {company}', body: 'Dear {account},\n\n{invoiceTable}\n\nPlease pay {totalOwed} now.' },
];

beforeAll(async () => {
  ctx = await buildTestApp({ DATA_DIR: dataDir });
  admin = await signIn(ctx, { tenantName: 'Remind Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Remind Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Remind Ltd' });
  standard = await signIn(ctx, { tenantName: 'Standard Remind Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  await ctx.database.db.update(users).set({ role: 'Standard' }).where(eq(users.id, standard.userId));
  await ok('PUT', 'company-settings/preferences', { reminderTime: '23:59', reminderTimeZone: quietZone });
  for (const [key, name, disputedAmount] of [
    ['A', 'Alpha Trading', 0],
    ['B', 'Bravo Disputes', 120],
    ['C', 'Charlie Paused', 0],
    ['D', 'Delta None', 0],
  ] as const)
    accountIds[key] = (
      await ok('POST', 'accounts', {
        accountReference: `REM-${key}`,
        name,
        currency: 'GBP',
        disputedAmount,
        emailAddresses: [{ emailAddress: `${key.toLowerCase()}@payer.example`, type: 'Accounts', isDefault: true }],
      })
    ).id;
}, 60_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('reminder schedules', () => {
  it('refuses a schedule that breaks a rule, each with its message', async () => {
    const cases: [object, string, string][] = [
      [{ name: '  ', steps }, 'name', m.nameRequired],
      [{ name: 'x'.repeat(101), steps }, 'name', m.nameTooLong],
      [{ name: 'Empty', steps: [] }, 'steps', m.stepsRequired],
      [{ name: 'Many', steps: Array.from({ length: 11 }, (_, i) => ({ ...steps[0]!, days: i })) }, 'steps', m.tooManySteps],
      [{ name: 'Far', steps: [{ ...steps[0]!, days: 400 }] }, 'steps.0.days', m.days],
      [{ name: 'Half', steps: [{ ...steps[0]!, days: 1.5 }] }, 'steps.0.days', m.days],
      [{ name: 'Twice', steps: [steps[1], { ...steps[2]!, days: 1 }] }, 'steps.1.days', m.daysRepeated],
      [{ name: 'No subject', steps: [{ ...steps[0]!, subject: '' }] }, 'steps.0.subject', m.subjectRequired],
      [{ name: 'No body', steps: [{ ...steps[0]!, body: ' ' }] }, 'steps.0.body', m.bodyRequired],
      [{ name: 'Long body', steps: [{ ...steps[0]!, body: 'x'.repeat(5001) }] }, 'steps.0.body', m.bodyTooLong],
      [{ name: 'Typo', steps: [{ ...steps[0]!, body: 'Pay {totalOwing}' }] }, 'steps.0.body', m.unknownPlaceholder('totalOwing')],
    ];
    for (const [body, field, message] of cases) {
      const response = await call(admin, 'POST', 'reminder-schedules', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().errors[field], field).toContain(message);
    }
    expect(m.unknownPlaceholder('totalOwing')).toBe(
      'Unknown placeholder {totalOwing}: use {company}, {account}, {invoiceTable}, {totalOwed}, {lateFees}, {statementLink}',
    );
  });

  it('creates, reads, lists and edits a schedule; a step keeps its id when edited', async () => {
    const created = await call(admin, 'POST', 'reminder-schedules', { name: '  Standard dunning ', steps: [steps[2], steps[0], steps[1]] });
    expect(created.statusCode, created.body).toBe(201);
    const schedule = created.json();
    scheduleId = schedule.id;
    expect(schedule).toMatchObject({ name: 'Standard dunning', isDefault: false });
    expect(schedule.steps.map((s: { days: number }) => s.days)).toEqual([-3, 1, 7]);
    expect((await call(viewer, 'GET', 'reminder-schedules')).json()).toEqual({ items: [], totalItems: 0 });
    const list = (await call(admin, 'GET', 'reminder-schedules?sort=-name')).json();
    expect(list).toMatchObject({ totalItems: 1, items: [{ id: scheduleId }] });
    const renamed = await call(admin, 'PUT', `reminder-schedules/${scheduleId}`, {
      name: 'Standard dunning',
      steps: schedule.steps.map((s: object) => s),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().steps.map((s: { id: string }) => s.id)).toEqual(schedule.steps.map((s: { id: string }) => s.id));
    const activity = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.tenantId, admin.tenantId), eq(auditActivities.operation, 'CreateReminderSchedule')));
    // The refused bodies of the test before are kept too, each with its 400.
    expect(activity.filter((row) => row.status === 201)).toMatchObject([{ resourceId: scheduleId }]);
    expect(activity.filter((row) => row.status === 400)).toHaveLength(11);
    expect((await call(admin, 'GET', `reminder-schedules/${scheduleId}`)).json().name).toBe('Standard dunning');
  });

  it('is the company default through the preferences; an unknown id is refused', async () => {
    const unknown = await call(admin, 'PUT', 'company-settings/preferences', {
      defaultReminderScheduleId: '01900000-0000-7000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.defaultReminderScheduleId).toEqual([m.scheduleNotFound]);
    const badTime = await call(admin, 'PUT', 'company-settings/preferences', { reminderTime: '25:00', reminderTimeZone: 'Mars/Olympus' });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().errors).toMatchObject({ reminderTime: [m.reminderTime], reminderTimeZone: [m.reminderTimeZone] });
    const saved = await ok('PUT', 'company-settings/preferences', { defaultReminderScheduleId: scheduleId });
    expect(saved).toMatchObject({ defaultReminderScheduleId: scheduleId, reminderTime: '23:59', reminderTimeZone: quietZone });
    expect((await call(admin, 'GET', `reminder-schedules/${scheduleId}`)).json().isDefault).toBe(true);
    const inUse = await call(admin, 'DELETE', `reminder-schedules/${scheduleId}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().detail).toBe(
      'This reminder schedule is in use: it is the company default. Choose another schedule there first.',
    );
  });

  it('keeps each account’s choice and pause in its reminder settings', async () => {
    expect((await call(admin, 'GET', `accounts/${accountIds.A}/reminder-settings`)).json()).toEqual({
      reminderSchedule: 'default',
      remindersPaused: false,
    });
    await ok('PUT', `accounts/${accountIds.C}/reminder-settings`, { reminderSchedule: scheduleId, remindersPaused: true });
    await ok('PUT', `accounts/${accountIds.D}/reminder-settings`, { reminderSchedule: 'none', remindersPaused: false });
    expect((await call(admin, 'GET', `accounts/${accountIds.C}/reminder-settings`)).json()).toEqual({
      reminderSchedule: scheduleId,
      remindersPaused: true,
    });
    const bad = await call(admin, 'PUT', `accounts/${accountIds.A}/reminder-settings`, { reminderSchedule: 'sometimes', remindersPaused: false });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.reminderSchedule).toEqual([m.reminderChoice]);
    const foreign = await call(admin, 'PUT', `accounts/${accountIds.A}/reminder-settings`, {
      reminderSchedule: '01900000-0000-7000-8000-000000000000',
      remindersPaused: false,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.reminderSchedule).toEqual([m.scheduleNotFound]);
    const chosen = await call(admin, 'DELETE', `reminder-schedules/${scheduleId}`);
    expect(chosen.json().detail).toBe(
      'This reminder schedule is in use: it is the company default and 1 account uses it. Choose another schedule there first.',
    );
  });
});

describe('the reminder run', () => {
  const ref = { overdue10: '', overdue5: '', overdue1: '', dueIn2: '', dueIn10: '' };

  beforeAll(async () => {
    ref.overdue10 = await invoice(accountIds.A, 'INV-A10', 100, day(-10));
    ref.overdue5 = await invoice(accountIds.A, 'INV-A5', 250.5, day(-5));
    ref.overdue1 = await invoice(accountIds.A, 'INV-A1', 1200, day(-1));
    ref.dueIn2 = await invoice(accountIds.A, 'INV-A+2', 40, day(2));
    ref.dueIn10 = await invoice(accountIds.A, 'INV-A+10', 99, day(10));
    await invoice(accountIds.A, 'INV-APAID', 70, day(-20), 70);
    for (const key of ['B', 'C', 'D'] as const) await invoice(accountIds[key], `INV-${key}`, 10, day(-9));
  });

  it('previews one mail for A, with the disputed and paused accounts held back', async () => {
    const preview = await call(viewer, 'GET', `reminders/preview?date=${day(0)}`);
    expect(preview.json()).toMatchObject({ items: [], totalItems: 0 });
    const response = await call(admin, 'GET', `reminders/preview?date=${day(0)}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      date: day(0),
      customerNotificationsAllowed: true,
      totalItems: 1,
      skipped: { disputed: 1, paused: 1, noEmailAddress: 0 },
    });
    expect(body.items[0]).toMatchObject({
      accountId: accountIds.A,
      emailAddress: 'a@payer.example',
      subject: 'Final reminder from Remind Ltd',
    });
    expect(body.items[0].invoices.map((i: { transactionReference: string; days: number }) => [i.transactionReference, i.days])).toEqual([
      ['INV-A10', 7],
      ['INV-A5', 1],
      ['INV-A1', 1],
      ['INV-A+2', -3],
    ]);
    expect(body.items[0].totals).toEqual([{ currency: 'GBP', totalOwed: 1590.5, lateFees: 0 }]);
    const bad = await call(admin, 'GET', 'reminders/preview?date=2026-02-30');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.date).toEqual([m.date]);
  });

  it('sends ONE mail to A listing every due invoice, keeps it, audits it and sends reminder.sent', async () => {
    rmSync(mailDrop, { recursive: true, force: true });
    const run = await call(admin, 'POST', 'reminders/run', { date: day(0) });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toMatchObject({ date: day(0), reminders: 1, invoices: 4 });
    await outboxEmpty();
    const sent = mails();
    expect(sent).toHaveLength(1);
    const mail = sent[0]!;
    expect(mail).toContain('To: a@payer.example');
    expect(mail).toContain('Subject: Final reminder from Remind Ltd');
    for (const reference of ['INV-A10', 'INV-A5', 'INV-A1', 'INV-A+2']) expect(mail).toContain(reference);
    expect(mail).not.toContain('INV-A+10');
    expect(mail).not.toContain('INV-APAID');
    expect(mail).toContain('Please pay GBP 1,590.50 now.');
    // One statement link, issued for the mail (the statements feature), after the template's body.
    const links = [...new Set(mail.match(/http:\/\/localhost:3000\/statement\/[A-Za-z0-9_-]{43}/g))];
    expect(links).toHaveLength(1);
    expect(mail).toContain(`View your statement and pay: ${links[0]}`);
    const kept = (await call(viewer, 'GET', `accounts/${accountIds.A}/reminders`)).statusCode;
    expect(kept).toBe(404);
    const list = (await call(admin, 'GET', `accounts/${accountIds.A}/reminders`)).json();
    expect(list.totalItems).toBe(1);
    expect(list.items[0]).toMatchObject({
      status: 'Sent',
      source: 'Schedule',
      emailAddress: 'a@payer.example',
      runOn: day(0),
      statementUrl: links[0],
    });
    const audit = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.tenantId, admin.tenantId), eq(auditActivities.operation, 'SendReminder')));
    expect(audit).toMatchObject([{ resourceType: 'Account', resourceId: accountIds.A, datasetId: 1 }]);
    const hooks = await ctx.database.db
      .select()
      .from(webHookEvents)
      .where(and(eq(webHookEvents.tenantId, admin.tenantId), eq(webHookEvents.type, 'reminder.sent')));
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.payload).toMatchObject({ accountId: accountIds.A, status: 'Sent' });
  });

  it('never sends a step twice, and a paid invoice drops out', async () => {
    const again = await ok('POST', 'reminders/run', { date: day(0) });
    expect(again.reminders).toBe(0);
    // A week on: A10 had its last step; A5 is paid in the ERP; A1 and A+2 reach new steps.
    await invoice(accountIds.A, 'INV-A5', 250.5, day(-5), 250.5);
    const preview = (await call(admin, 'GET', `reminders/preview?date=${day(7)}`)).json();
    expect(preview.items[0].invoices.map((i: { transactionReference: string; days: number }) => [i.transactionReference, i.days])).toEqual([
      ['INV-A1', 7],
      ['INV-A+2', 1],
      ['INV-A+10', -3],
    ]);
    const later = await ok('POST', 'reminders/run', { date: day(7) });
    expect(later).toMatchObject({ reminders: 1, invoices: 3 });
    expect((await ok('POST', 'reminders/run', { date: day(7) })).reminders).toBe(0);
    // Far later every step of every open invoice has gone: nothing more is sent.
    const end = await ok('POST', 'reminders/run', { date: day(30) });
    expect(end).toMatchObject({ reminders: 1, invoices: 2 });
    expect((await ok('POST', 'reminders/run', { date: day(60) })).reminders).toBe(0);
  });

  it('sends now for one account, resumed from a pause; refuses a Viewer, a Standard user and another tenant', async () => {
    await invoice(accountIds.C, 'INV-C2', 30, day(-2));
    const paused = await ok('POST', 'reminders/run', { date: day(0), accountId: accountIds.C });
    expect(paused.reminders).toBe(0);
    await ok('PUT', `accounts/${accountIds.C}/reminder-settings`, { reminderSchedule: scheduleId, remindersPaused: false });
    const now = await ok('POST', 'reminders/run', { date: day(0), accountId: accountIds.C });
    expect(now).toMatchObject({ reminders: 1, invoices: 2 });
    const [row] = await ctx.database.db.select().from(reminderRows).where(eq(reminderRows.accountId, accountIds.C));
    expect(row).toMatchObject({ source: 'SendNow', emailAddress: 'c@payer.example' });
    for (const who of [viewer, standard]) {
      const refused = await call(who, 'POST', 'reminders/run', {});
      expect(refused.statusCode).toBe(403);
      expect((await call(who, 'POST', 'reminder-schedules', { name: 'X', steps })).statusCode).toBe(403);
    }
    expect((await call(rival, 'POST', 'reminders/run', { accountId: accountIds.A })).statusCode).toBe(404);
    expect((await call(rival, 'GET', `accounts/${accountIds.A}/reminders`)).statusCode).toBe(404);
    expect((await call(rival, 'GET', `reminder-schedules/${scheduleId}`)).statusCode).toBe(404);
    expect((await call(rival, 'PUT', `reminder-schedules/${scheduleId}`, { name: 'Mine', steps })).statusCode).toBe(404);
    expect((await call(rival, 'DELETE', `reminder-schedules/${scheduleId}`)).statusCode).toBe(404);
    expect((await call(rival, 'PUT', `accounts/${accountIds.A}/reminder-settings`, { reminderSchedule: 'none', remindersPaused: true })).statusCode).toBe(404);
    expect((await call(rival, 'GET', `reminders/preview?date=${day(0)}`)).json().totalItems).toBe(0);
    expect((await call(rival, 'PUT', 'company-settings/preferences', { defaultReminderScheduleId: scheduleId })).statusCode).toBe(400);
    const badAccount = await call(admin, 'POST', 'reminders/run', { accountId: 'nope' });
    expect(badAccount.statusCode).toBe(400);
    expect(badAccount.json().errors.accountId).toEqual(['Account id must be a UUID']);
  });

  it('sends nothing when the tenant does not allow customer notifications', async () => {
    const b = await invoice(accountIds.A, 'INV-A-LATE', 15, day(-1));
    expect(b).toBeTruthy();
    await ctx.database.db
      .update(tenantSettings)
      .set({ value: 'false' })
      .where(and(eq(tenantSettings.tenantId, admin.tenantId), eq(tenantSettings.name, 'AllowCustomerNotifications')));
    const off = await ok('POST', 'reminders/run', { date: day(0) });
    expect(off).toMatchObject({ customerNotificationsAllowed: false, reminders: 0 });
    expect((await call(admin, 'GET', `reminders/preview?date=${day(0)}`)).json()).toMatchObject({
      customerNotificationsAllowed: false,
      totalItems: 0,
    });
    await ctx.database.db
      .update(tenantSettings)
      .set({ value: 'true' })
      .where(and(eq(tenantSettings.tenantId, admin.tenantId), eq(tenantSettings.name, 'AllowCustomerNotifications')));
  });
});

describe('the daily job', () => {
  it('reads the time of day in the company’s own zone', () => {
    const instant = new Date('2026-03-01T20:05:00Z');
    expect(localDayAndTime('Pacific/Auckland', instant)).toEqual({ day: '2026-03-02', time: '09:05' });
    expect(localDayAndTime('Europe/London', instant)).toEqual({ day: '2026-03-01', time: '20:05' });
    expect(localDayAndTime('America/Los_Angeles', new Date('2026-07-01T06:30:00Z'))).toEqual({ day: '2026-06-30', time: '23:30' });
  });

  it('runs a company once its time has come in its zone, once a day, for that zone’s day', async () => {
    const queued: { name: string; data: { tenantId: string; datasetId: number; date: string } }[] = [];
    const reminders = createReminders({
      database: ctx.database,
      jobs: { send: async (name: string, data: never) => void queued.push({ name, data }) } as never,
      mailer: { send: async () => {} },
      statementLink: null,
      log: ctx.app.log,
    });
    const ours = () => queued.filter((job) => job.name === 'reminders.run' && job.data.tenantId === admin.tenantId);
    const target = day(-40);
    await invoice(accountIds.A, 'INV-A-ZONE', 15, day(-42));
    // 23:50 in the company's zone: not yet.
    await reminders.sweep(instantAt(quietZone, target, '23:50'));
    expect(ours()).toEqual([]);
    // 23:59 there: the run of the zone's day (a different UTC day where the zone is not UTC).
    const due = instantAt(quietZone, target, '23:59');
    await reminders.sweep(due);
    expect(ours().map((job) => job.data)).toEqual([{ tenantId: admin.tenantId, datasetId: 1, date: target }]);
    const first = await reminders.runScheduled(ours()[0]!.data);
    expect(first).toMatchObject({ date: target, reminders: 1, invoices: 1 });
    expect(queued.some((job) => job.name === reminderSendQueue)).toBe(true);
    // Made once: the sweep asks no more, and the job run again does nothing.
    queued.length = 0;
    await reminders.sweep(new Date(due.getTime() + 60_000));
    expect(ours()).toEqual([]);
    expect(await reminders.runScheduled({ tenantId: admin.tenantId, datasetId: 1, date: target })).toBeNull();
    expect(await reminders.send()).toBe(1);
  });
});
