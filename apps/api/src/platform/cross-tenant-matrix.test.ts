import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { providerConnectionMessages, secretSentinel } from '@ledgerline/contract';
import { datasets, users } from '../db/schema.js';
import { paymentProviderEvents } from '../db/schema-providers.js';
import { reminderRuns } from '../db/schema-reminders.js';
import { webHookDeliveries, webHookEvents } from '../db/schema-web-hooks.js';
import { waitFor } from '../../test/wait.js';
import { generateReceivables } from '../features/datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../test/app.js';
import { makeDemoCompany } from '../../test/feature-gates.js';

/*
 * The cross-tenant matrix: every operation of the served OpenAPI document, so a route
 * added tomorrow is covered the day it is added. Tenant A calls each one with tenant B's ids in
 * the path, B's references in the query and the body (a minimal valid body generated from the
 * operation's schema, so validation does not hide the check) and B's company in Dataset-Id, by
 * session and by access key. A Viewer is refused every unsafe operation, and so is a session
 * without the XSRF header. Then a key bound to A's company 1 calls each one with the ids,
 * references and company of A's company 2 (a sibling company of the same tenant): it must see
 * neither that company's records nor the tenant's own activity log, and change nothing of it.
 */

type Schema = { [key: string]: unknown };
interface Operation {
  method: string;
  path: string;
  parameters: { in: string; name: string; required?: boolean; schema?: Schema }[];
  body: Schema | null;
  /** A file upload: its summary says multipart (the document, the allocated-status import). */
  upload: boolean;
}

/**
 * Operations that are not tenant scoped, so there is nothing of another tenant to reach. Keep
 * this list short; everything else is walked.
 */
const notTenantScoped = new Set([
  'GET /api/health', // the database check, no tenant
  'GET /api/v0/info/sign-in', // the issuer and client id the site signs in with
  'GET /api/v0/info/site', // the installation's terms and privacy addresses (configuration)
  // The site's errors and web vitals: no tenant, nothing stored, logged and counted only
  // (src/features/client-reports/client-reports.test.ts).
  'POST /api/v0/client-reports',
  'POST /api/v0/login', // exchanges an identity provider's token; no session yet
  // Keeps the invitation token of its link in a cookie for POST /login, which checks it against the
  // invited user (src/features/auth/external-sign-in.test.ts); nothing is read or written here.
  'GET /api/v0/invitations/accept',
  'GET /api/v0/logout', // ends the caller's own session (walked, it would sign A out mid-matrix)
  // The payer page has no tenant and no sign-in: the request's id in its link is what
  // gives access, and any caller with the link may see and pay it. A payment id of another request
  // is refused (src/features/pay/pay-page.test.ts "never shows or settles a payment through another
  // request's id"); a notification reaches only its own configuration's payments
  // (src/features/pay/provider-notifications.test.ts).
  'GET /api/v0/pay/{id}',
  'GET /api/v0/pay/{id}/logo',
  'POST /api/v0/pay/{id}/payments',
  'GET /api/v0/pay/{id}/payments/{paymentId}',
  'POST /api/v0/pay/{id}/payments/{paymentId}/sandbox',
  'POST /api/v0/pay/{id}/payments/{paymentId}/transafe', // src/features/pay/transafe-end-to-end.test.ts, "another request's id"
  'POST /api/v0/pay/{id}/payments/{paymentId}/opayo', // src/features/pay/opayo-pi-end-to-end.test.ts, "another request's id"
  // The card issuer's 3-D Secure page posts the payer back; only a payment of that request waiting
  // for 3-D Secure is acted on (src/features/pay/opayo-pi-end-to-end.test.ts, "not waiting").
  'POST /api/v0/pay/{id}/payments/{paymentId}/3ds',
  'POST /api/v0/webhooks/{provider}/{configurationId}',
  // An account's statement has no tenant and no sign-in either: the token of its link is
  // what gives access, and it reaches only its own account's invoices (src/features/statements/statements.test.ts,
  // "another company's invoice"). Issuing the link (POST accounts/{id}/statement-link) is walked.
  'GET /api/v0/statements/{token}',
  'GET /api/v0/statements/{token}/pdf',
  'POST /api/v0/statements/{token}/pay',
]);

/** Unsafe operations a Viewer may call: they change only the caller's own things. */
const viewerMayCall = new Set([
  'PUT /api/v0/users/me/settings', // the user's own display settings (spec 2 §9)
  'POST /api/v0/company-settings/custom-host-id/example', // computes an example from the body, stores nothing
]);

const ownCompany = '1';
/**
 * B has companies 1 to 4; A has 1 and 2 (and creates 3 during the walk), so 4 is a company of
 * another tenant only.
 */
const foreignCompany = '4';

let ctx: TestContext;
let document: {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
};
let a: SignedIn;
let b: SignedIn;
let viewer: SignedIn;
let aKey: string;
/** A key of tenant A bound to A's company 1 (subscription-keys?noDataset=false). */
let aBoundKey: string;

/** Whose records a walk aims at: their ids by the resource they name, and their company. */
interface Target {
  ids: Record<string, string>;
  /** The company id sent in Dataset-Id and in bodies' company fields: not the caller's. */
  company: string;
}
/** B's ids by the resource they name, for paths, queries and bodies. */
const theirs: Record<string, string> = {};
const tenantB: Target = { ids: theirs, company: foreignCompany };
/** A's company 2: the sibling company a key bound to A's company 1 must not reach. */
const siblingCompany = '2';
const sibling: Target = { ids: {}, company: siblingCompany };
const siblingName = 'A sibling company 2';

const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

async function call(
  who: SignedIn,
  method: string,
  url: string,
  payload?: object,
  company = ownCompany,
) {
  const response = await ctx.app.inject({
    method: method as 'GET',
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': company }),
    payload,
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

const onePixelPng =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function multipart(fileName: string, content: Buffer, field = 'file') {
  const boundary = '----ledgerline-matrix-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Every row of every tenant-owned table of one tenant (or of one of its companies: the tables with
 * a company column), as text: what A must not change.
 */
async function rowsOf(tenantId: string, company?: string): Promise<string> {
  const column = company === undefined ? 'tenant_id' : 'dataset_id';
  const tables = (await ctx.database.db.execute(sql`
    select table_name from information_schema.columns
    where table_schema = 'public' and column_name = ${column} order by table_name`)) as unknown as {
    rows: { table_name: string }[];
  };
  const dump: string[] = [];
  for (const { table_name } of tables.rows) {
    const table = sql.identifier(table_name);
    const rows = (await ctx.database.db.execute(
      company === undefined
        ? sql`select * from ${table} where tenant_id = ${tenantId} order by 1, 2, 3`
        : sql`select * from ${table} where tenant_id = ${tenantId} and dataset_id = ${Number(company)} order by 1, 2, 3`,
    )) as unknown as { rows: unknown[] };
    dump.push(`${table_name}: ${JSON.stringify(rows.rows)}`);
  }
  return dump.join('\n');
}

/**
 * What a key bound to A's company 1 must never see: the id of every row of A's company 2, and of
 * every activity of the tenant itself (sign-ins, users, keys, companies).
 */
async function siblingSecrets(): Promise<Set<string>> {
  const secrets = new Set<string>();
  const ids = (await ctx.database.db.execute(sql`
    select c.table_name from information_schema.columns c
    join information_schema.columns i on i.table_schema = c.table_schema and i.table_name = c.table_name
      and i.column_name = 'id'
    where c.table_schema = 'public' and c.column_name = 'dataset_id'
    order by c.table_name`)) as unknown as { rows: { table_name: string }[] };
  for (const { table_name } of ids.rows) {
    const rows = (await ctx.database.db.execute(
      sql`select id::text as id from ${sql.identifier(table_name)} where tenant_id = ${a.tenantId} and dataset_id = ${Number(siblingCompany)}`,
    )) as unknown as { rows: { id: string }[] };
    for (const { id } of rows.rows) secrets.add(id.toLowerCase());
  }
  const tenantLog = (await ctx.database.db.execute(
    sql`select id::text as id from audit_activities where tenant_id = ${a.tenantId} and dataset_id is null`,
  )) as unknown as { rows: { id: string }[] };
  for (const { id } of tenantLog.rows) secrets.add(id.toLowerCase());
  return new Set([...secrets].filter((id) => new RegExp(`^${uuidPattern.source}$`, 'i').test(id)));
}

/**
 * One company's records of every kind the walk names (receivables, a captured payment with its
 * provider event, an offer, a document, keys, a user, money rules, a provider with an event, a web
 * hook endpoint with a delivery), made by `who` in `company`; their ids by resource.
 */
async function seedRecords(who: SignedIn, company: string): Promise<Record<string, string>> {
  const datasetId = Number(company);
  const as = (method: string, url: string, payload?: object) =>
    call(who, method, url, payload, company);
  await ctx.database.withTenant(who.tenantId, (tx) =>
    generateReceivables(
      tx,
      { tenantId: who.tenantId, datasetId },
      { accounts: 3, transactions: 4, paymentRequests: 2, paymentTransactions: 24, banks: 1 },
    ),
  );
  const first1 = async (url: string) => (await as('GET', url)).items[0];
  const account = await first1('accounts?itemsPerPage=1');
  const payer = await first1(`accounts/${account.id}/payers?itemsPerPage=1`);
  const transaction = await first1('transactions?itemsPerPage=1&filter=paidStatus eq Unpaid');
  const paymentRequest = await first1('payment-requests?itemsPerPage=1');
  const bank = await first1('banks?itemsPerPage=1');
  const pending = await first1('payment-transactions?itemsPerPage=1&filter=status eq Pending');
  // The payer is not mailed about the capture: a mail job finishing later would change the
  // company's rows (notification_deliveries) after the matrix counted them.
  await as('PUT', 'notifications/customer', {
    notificationSettings: [{ notificationName: 'PaymentPendingCompleted', isEnabled: false }],
  });
  await as('POST', `payment-transactions/${pending.id}/pending/capture`, { amountToCapture: 1 });
  const event = (await as('GET', `provider-events/records/${pending.id}`)).items[0];
  const offer = await as('POST', `transactions/${transaction.id}/settlement-offers`, {
    type: 'AbsoluteDiscount',
    amount: 1,
    description: 'Matrix offer',
  });
  const file = multipart(
    'b.pdf',
    Buffer.from(
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    ),
  );
  const uploaded = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/transactions/${transaction.id}/documents`,
    headers: who.headers({ 'dataset-id': company, 'content-type': file.contentType }),
    payload: file.payload,
  });
  const later = new Date(Date.now() + 86_400_000).toISOString();
  const accessKey = await as('POST', 'access-keys', { name: `Key ${company}`, validUntil: later });
  const subscriptionKey = await as('POST', 'subscription-keys', {
    name: `Subscription ${company}`,
    validUntil: later,
  });
  const user = await as('POST', 'users', {
    name: 'Matrix colleague',
    email: `colleague-${company}-${who.userId.slice(0, 8)}@example.com`,
    role: 'Standard',
  });
  // The money rules' and payment providers' records: a settlement group with one
  // configuration, a late payment configuration and a payment provider configuration, each the
  // company's default, so a read of the caller's own preferences or default would show them if
  // it leaked.
  const group = await as('POST', 'settlement-configuration-groups', { name: 'Matrix group' });
  const withConfiguration = await as(
    'POST',
    `settlement-configuration-groups/${group.id}/configurations`,
    { type: 'AbsoluteDiscount', dateType: 'DueDate', numberOfDays: 5, amount: 1, currency: 'GBP' },
  );
  const latePayment = await as('POST', 'late-payment-configurations', {
    type: 'Uk',
    name: 'Matrix late payments',
    gracePeriodInDays: 5,
  });
  // A reminder schedule, the company default, and a reminder kept for the account.
  const reminderSchedule = await as('POST', 'reminder-schedules', {
    name: 'Matrix reminders',
    steps: [{ days: 1, subject: 'Overdue', body: 'Dear {account}, {invoiceTable}' }],
  });
  await as('PUT', 'company-settings/preferences', {
    defaultSettlementConfigurationGroupId: group.id,
    defaultLatePaymentConfigurationId: latePayment.id,
    defaultReminderScheduleId: reminderSchedule.id,
  });
  // The reminder sweep (a job every five minutes, never a request) makes a company's run of the
  // day once its time has come: in the middle of the walk that would change B's rows with nothing
  // A did. The runs of the days around today are made already, as the sweep would have made them.
  const dayFromToday = (offset: number) =>
    new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  await ctx.database.db
    .insert(reminderRuns)
    .values(
      [-1, 0, 1].map((offset) => ({
        tenantId: who.tenantId,
        datasetId,
        runOn: dayFromToday(offset),
        finishedOn: new Date(),
      })),
    )
    .onConflictDoNothing();
  const provider = await as('POST', 'providers', {
    providerName: 'Sandbox',
    name: 'Matrix sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
  });
  await as('PUT', 'providers/default', { paymentProviderId: provider.id });
  // A provider event of the configuration (providers/{id}/events); the Sandbox makes no
  // connection exchange of its own, so it is written as a connection test would keep it.
  await ctx.database.db.insert(paymentProviderEvents).values({
    tenantId: who.tenantId,
    datasetId,
    id: randomUUID(),
    paymentProviderId: provider.id,
    providerName: 'Sandbox',
    eventType: 'version',
    recordType: 'vendor',
    recordId: `vendor-${company}`,
    status: '0000',
    payload:
      '{"request":{"method":"POST","url":"https://b.example"},"response":{"status":200,"body":""}}',
  });
  // Web hooks: an endpoint, switched off so nothing is sent to it, and a delivery of
  // one of the company's events; every event of the company dispatched first, so its rows stay
  // still during the walk.
  const endpoint = await as('POST', 'web-hooks/endpoints', {
    url: 'https://127.0.0.1:9/matrix-target-hooks',
    disabled: true,
  });
  const ofCompany = and(
    eq(webHookEvents.tenantId, who.tenantId),
    eq(webHookEvents.datasetId, datasetId),
  );
  await waitFor(async () => {
    const [left] = await ctx.database.db
      .select({ n: count() })
      .from(webHookEvents)
      .where(and(ofCompany, isNull(webHookEvents.dispatchedOn)));
    return left!.n === 0 ? true : undefined;
  });
  const [event1] = await ctx.database.db.select().from(webHookEvents).where(ofCompany).limit(1);
  const [delivery] = await ctx.database.db
    .insert(webHookDeliveries)
    .values({
      tenantId: who.tenantId,
      datasetId,
      eventId: event1!.id,
      eventSeq: event1!.seq,
      endpointId: endpoint.id,
      recordId: event1!.recordId,
      status: 'Succeeded',
      attempts: 1,
      statusCode: 200,
      nextAttemptOn: null,
    })
    .returning();
  return {
    'settlement-configuration-groups': group.id,
    'reminder-schedules': reminderSchedule.id,
    configurations: withConfiguration.configurations[0].id,
    'late-payment-configurations': latePayment.id,
    providers: provider.id,
    'payment-provider': provider.id, // stripe/… and gocardless/payment-provider/{id}
    users: user.id,
    accounts: account.id,
    payers: payer.id,
    'by-reference': account.accountReference,
    transactions: transaction.id,
    'settlement-offers': offer.id,
    documents: uploaded.json().id,
    'payment-requests': paymentRequest.id,
    'payment-transactions': pending.id,
    'provider-events': event.id,
    records: pending.id,
    banks: bank.id,
    'access-keys': accessKey.id,
    'subscription-keys': subscriptionKey.id,
    endpoints: endpoint.id,
    deliveries: delivery!.id,
  };
}

beforeAll(async () => {
  ctx = await buildTestApp({
    // GoCardless configured (an unconfigured server never reaches the tenant's records), its
    // connect service at a closed port, so the code exchange fails without leaving the machine.
    GOCARDLESS_CLIENT_ID: 'matrix-client',
    GOCARDLESS_CLIENT_SECRET: 'matrix-secret',
    GOCARDLESS_CONNECT_URL: 'http://127.0.0.1:9',
    GOCARDLESS_API_URL: 'http://127.0.0.1:9',
    // Stripe Connect's client id, so the authorisation start reaches the configuration it names;
    // its connect service at a closed port too.
    STRIPE_CONNECT_CLIENT_ID: 'ca_matrix',
    STRIPE_CONNECT_URL: 'http://127.0.0.1:9',
    STRIPE_API_URL: 'http://127.0.0.1:9',
    // Opayo knows this server's address, so the IP registration reaches the stored-secret lookup.
    OPAYO_SERVER_IP: '127.0.0.1',
    OPAYO_TEST_URL: 'http://127.0.0.1:9',
    OPAYO_LIVE_URL: 'http://127.0.0.1:9',
    // Web hook endpoints at a closed local port: A's own events fail at once, nothing leaves.
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  document = (await ctx.app.inject({ method: 'GET', url: '/api/v0/openapi.json' })).json();
  a = await signIn(ctx, { tenantName: 'Matrix A Ltd' });
  b = await signIn(ctx, { tenantName: 'Matrix B Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Matrix Viewer Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));

  for (const [who, companies] of [
    [b, [2, 3, 4]],
    [a, [2]],
  ] as const) {
    const [first] = await ctx.database.db
      .select()
      .from(datasets)
      .where(eq(datasets.tenantId, who.tenantId));
    for (const id of companies)
      await ctx.database.db.insert(datasets).values({
        ...first!,
        id,
        name: who === a ? siblingName : `B company ${id}`,
        createdAt: undefined,
      });
  }
  for (const [who, company] of [
    [a, ownCompany],
    [b, ownCompany],
    [a, siblingCompany],
  ] as const)
    // Test providers belong to demo companies: each company the walk uses is one.
    await makeDemoCompany(ctx, who, Number(company));
  // Same company id (1) in both tenants, so a check on the company alone would not hold.
  await ctx.database.withTenant(a.tenantId, (tx) =>
    generateReceivables(
      tx,
      { tenantId: a.tenantId, datasetId: 1 },
      { accounts: 3, transactions: 4, paymentRequests: 2, paymentTransactions: 24, banks: 1 },
    ),
  );
  Object.assign(theirs, await seedRecords(b, ownCompany), {
    'data-sets': foreignCompany,
    resources: '', // set below: the audit trail of B's key
  });
  theirs.resources = theirs['access-keys']!;
  // A's company 2, for the key bound to A's company 1; its records' audit trail is the company's
  // (the provider's), the tenant's own trail (users, keys) is refused to such a key as a whole.
  Object.assign(sibling.ids, await seedRecords(a, siblingCompany), {
    'data-sets': siblingCompany,
  });
  sibling.ids.resources = sibling.ids.providers!;
  const later = new Date(Date.now() + 86_400_000).toISOString();
  aKey = (await call(a, 'POST', 'access-keys', { name: 'A connector', validUntil: later }))
    .accessKey;
  aBoundKey = (
    await call(a, 'POST', 'subscription-keys?noDataset=false', {
      name: 'A company 1 connector',
      validUntil: later,
    })
  ).accessKey;
  // A's custom host id rebuild needs a saved parse value, so the walk reaches the rebuild itself.
  await call(a, 'PUT', 'company-settings/custom-host-id', {
    createOption: 'AlwaysCreate',
    updateOption: 'AlwaysCreate',
    trimWhiteSpace: true,
    parseValue: '{transactionReference}',
  });
}, 180_000);
afterAll(() => ctx.close());

function operations(): Operation[] {
  const list: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const content = (
        operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined
      )?.content;
      list.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters as Operation['parameters'] | undefined) ?? [],
        body: content?.['application/json']?.schema ?? null,
        upload: /multipart/i.test(String(operation.summary ?? '')),
      });
    }
  }
  return list;
}

const nameOf = (operation: Operation) => `${operation.method} ${operation.path}`;
const unsafe = (operation: Operation) => operation.method !== 'GET' && operation.method !== 'HEAD';

function resolve(schema: Schema): Schema {
  let current = schema;
  while (typeof current.$ref === 'string')
    current = document.components.schemas[current.$ref.split('/').pop()!]!;
  return current;
}

/** B's id for a field or parameter by its name; `resource` is the path's resource, for `id`. */
function theirIdFor(name: string, resource: string, target: Target): string | undefined {
  const byName: Record<string, string> = {
    id: resource,
    // A bulk call's list of ids (the reservations' capture and cancel): B's records of the path.
    ids: resource,
    accountId: 'accounts',
    payerId: 'payers',
    transactionId: 'transactions',
    offerId: 'settlement-offers',
    settlementOfferId: 'settlement-offers',
    documentId: 'documents',
    paymentRequestId: 'payment-requests',
    paymentTransactionId: 'payment-transactions',
    bankId: 'banks',
    userId: 'users',
    accessKeyId: 'access-keys',
    groupId: 'settlement-configuration-groups',
    settlementConfigurationGroupId: 'settlement-configuration-groups',
    defaultSettlementConfigurationGroupId: 'settlement-configuration-groups',
    defaultReminderScheduleId: 'reminder-schedules',
    // An account's reminder choice: 'none', 'default' or a schedule id (B's, here).
    reminderSchedule: 'reminder-schedules',
    configurationId: 'configurations',
    latePaymentConfigurationId: 'late-payment-configurations',
    latePaymentConfigurationGroupId: 'late-payment-configurations',
    defaultLatePaymentConfigurationId: 'late-payment-configurations',
    paymentProviderId: 'providers',
  };
  const key = byName[name] ?? (name.endsWith('Id') ? `${name.slice(0, -2)}s` : undefined);
  return key === undefined ? undefined : target.ids[key];
}

const stringCandidates = [
  'x',
  'GBP',
  'Matrix',
  'ACC1',
  '20-00-00',
  '12345678',
  'a@example.com',
  '1',
];

/**
 * Values for fields whose rule the JSON schema cannot say (a refinement, a list of known values),
 * always sent so the generated body passes validation.
 */
const fieldValues: Record<string, unknown> = {
  currency: 'GBP',
  timeZoneId: 'GMT Standard Time',
  email: 'matrix@example.com',
  companyName: 'Matrix',
  parseValue: '{transactionReference}',
  percentageDiscount: 1,
  // Calendar days (YYYY-MM-DD, a refinement, not a format): transaction and due dates.
  transactionDate: new Date().toISOString().slice(0, 10),
  dueDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  // A payment provider configuration of the test provider needs no credentials of its own.
  providerName: 'Sandbox',
  // A connection test's password as the sentinel, so the server looks up the stored secret of
  // the configuration the body names (B's): what A must not reach.
  password: secretSentinel,
  // The same for TrueLayer's and Total Processing's connection tests.
  clientSecret: secretSentinel,
  accessToken: secretSentinel,
  // A web hook endpoint's address (a pattern the generator cannot meet).
  url: 'https://127.0.0.1:9/matrix-hooks',
};

/** A minimal value the schema accepts, with B's ids wherever a field names a record. */
function sample(raw: Schema, name: string, resource: string, target: Target): unknown {
  const schema = resolve(raw);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf']) {
    const variants = schema[key] as Schema[] | undefined;
    if (variants) {
      const chosen =
        variants.map(resolve).find((v) => v.type !== 'null' && !('const' in v && v.const === '')) ??
        variants[0]!;
      return sample(chosen, name, resource, target);
    }
  }
  if (Array.isArray(schema.allOf))
    return Object.assign(
      {},
      ...(schema.allOf as Schema[]).map((part) => sample(part, name, resource, target)),
    );
  const type = Array.isArray(schema.type)
    ? (schema.type as string[]).find((t) => t !== 'null')
    : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const value: Record<string, unknown> = {};
      for (const [property, propertySchema] of Object.entries(properties)) {
        const theirId = theirIdFor(property, resource, target);
        if (property in fieldValues) value[property] = fieldValues[property];
        // Every reference is sent, required or not: that is what the matrix is about.
        else if (required.has(property) || theirId !== undefined)
          value[property] = sample(propertySchema, property, resource, target);
      }
      return value;
    }
    case 'array':
      return Array.from(
        { length: Number(schema.minItems ?? 0) || (theirIdFor(name, resource, target) ? 1 : 0) },
        () => sample((schema.items ?? {}) as Schema, name, resource, target),
      );
    case 'integer':
    case 'number': {
      if (/datasetid$/i.test(name) || (name === 'id' && resource === 'data-sets'))
        return Number(target.company);
      const minimum =
        schema.minimum ??
        (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1);
      return Math.min(Number(minimum), Number(schema.maximum ?? Number.MAX_SAFE_INTEGER));
    }
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'uuid')
        return theirIdFor(name, resource, target) ?? target.ids.accounts;
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (schema.format === 'date')
        return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      if (schema.format === 'email') return 'matrix@example.com';
      const theirId = theirIdFor(name, resource, target);
      if (theirId !== undefined) return theirId;
      const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null;
      const minLength = Number(schema.minLength ?? 1);
      const fits = (text: string) =>
        (!pattern || pattern.test(text)) &&
        text.length >= minLength &&
        text.length <= Number(schema.maxLength ?? 1e9);
      return stringCandidates.find(fits) ?? 'x'.repeat(Math.max(1, minLength));
    }
    default:
      return {};
  }
}

/** The request A makes for an operation: B's ids in the path, query and body. */
function requestFor(operation: Operation, whose: Target = tenantB) {
  const segments = operation.path.split('/');
  let resource = '';
  const url = segments
    .map((segment, index) => {
      const param = /^\{(.+)\}$/.exec(segment)?.[1];
      if (!param) return segment;
      const owner = segments[index - 1]!;
      // A tenant setting's name is the same in every tenant: the answer is A's own.
      if (owner === 'tenant-settings') return 'AllowMultiplePaymentProviders';
      // ISO 3166 reference data (geo-data) is the same for every tenant: there is no B's country.
      if (owner === 'countries') return '826';
      if (owner === 'states') return 'GB-ENG';
      const value = whose.ids[owner];
      if (value === undefined)
        throw new Error(
          `${nameOf(operation)}: no id of tenant B known for {${param}} after ${owner}; add one to the matrix`,
        );
      resource = owner;
      return encodeURIComponent(value);
    })
    .join('/');
  const query = new URLSearchParams();
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    const theirId = theirIdFor(parameter.name, resource, whose);
    if (
      parameter.required ||
      (theirId !== undefined && parameter.name !== 'id') ||
      (parameter.name === 'id' && parameter.schema?.format === 'uuid')
    ) {
      const value =
        parameter.name === 'id' && parameter.schema?.format === 'uuid' && resource === ''
          ? whose.ids['provider-events']
          : sample(
              parameter.schema ?? {},
              parameter.name,
              whose.ids[resource] ? resource : 'accounts',
              whose,
            );
      query.set(parameter.name, String(value));
    }
  }
  const target = query.size > 0 ? `${url}?${query}` : url;
  const body = operation.body
    ? (sample(
        operation.body,
        '',
        resource === '' ? defaultResource(operation.path, whose) : resource,
        whose,
      ) as object)
    : undefined;
  // An account reference is the ERP's key, not a record id: A may have (or create) its own
  // account with the reference B uses, so only B's ids in the answer would be a leak.
  const hasIdInPath = resource !== '' && resource !== 'by-reference';
  return { url: target, body, hasIdInPath, csv: uploadedCsv(whose) };
}

/** The resource an `id` field of a body names when the path has none (PUT /banks). */
function defaultResource(path: string, target: Target): string {
  const segment = path
    .split('/')
    .filter((s) => s && !s.startsWith('{'))
    .pop()!;
  return segment in target.ids ? segment : (path.split('/')[3] ?? '');
}

interface Probe {
  label: string;
  headers: Record<string, string>;
}

/** What a file upload (a document, the allocated-status import) sends: B's payment ids. */
const uploadedCsv = (whose: Target) =>
  `PaymentTransactionId,AllocatedStatus\r\n${whose.ids['payment-transactions']},Error\r\n`;

async function send(
  operation: Operation,
  request: ReturnType<typeof requestFor>,
  probe: Probe,
): Promise<LightMyRequestResponse> {
  if (request.body !== undefined) {
    return ctx.app.inject({
      method: operation.method as 'GET',
      url: request.url,
      headers: { ...probe.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(request.body),
    });
  }
  if (operation.upload) {
    // The company logo is a PUT of an image in the field imageFile (a 1×1 PNG).
    const file = operation.path.endsWith('/logo')
      ? multipart('matrix.png', Buffer.from(onePixelPng, 'base64'), 'imageFile')
      : multipart('matrix.csv', Buffer.from(request.csv));
    return ctx.app.inject({
      method: operation.method as 'POST',
      url: request.url,
      headers: { ...probe.headers, 'content-type': file.contentType },
      payload: file.payload,
    });
  }
  return ctx.app.inject({
    method: operation.method as 'GET',
    url: request.url,
    headers: probe.headers,
  });
}

/** The names of the body's fields (at any depth) that hold an id. */
function fieldsHoldingIds(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => fieldsHoldingIds(item, into));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && new RegExp(`^${uuidPattern.source}$`, 'i').test(item))
        into.add(key);
      else fieldsHoldingIds(item, into);
    }
  }
  return into;
}

const isEmptyList = (body: unknown) =>
  (Array.isArray(body) && body.length === 0) ||
  (typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as { items?: unknown }).items) &&
    (body as { items: unknown[] }).items.length === 0);

/** A way of calling as A: with a company in Dataset-Id, or none. */
type Caller = readonly [label: string, headers: (company?: string) => Record<string, string>];

/**
 * Calls every operation as each caller with `whose` ids, references and company, and lists what
 * went wrong: a 2xx that shows one of `secrets` (or matches `secretText`) or answers for one of their
 * records, a 5xx, a request that did not validate, or anything but 404 for their company.
 */
async function walk(
  whose: Target,
  callers: readonly Caller[],
  secrets: Set<string>,
  secretText: RegExp | null,
  walked: string[] = [],
): Promise<string[]> {
  const failures: string[] = [];
  for (const operation of operations()) {
    if (notTenantScoped.has(nameOf(operation))) continue;
    walked.push(nameOf(operation));
    const request = requestFor(operation, whose);
    const referenceFields = fieldsHoldingIds(request.body);
    const sent =
      `${request.url} ${JSON.stringify(request.body ?? '')} ${operation.upload ? request.csv : ''}`.toLowerCase();
    const judge = (label: string, response: LightMyRequestResponse, expectNotFound = false) => {
      const where = `${nameOf(operation)} ${label} → ${response.statusCode}`;
      const refused = Object.keys(
        response.statusCode === 400 ? (response.json().errors ?? {}) : {},
      );
      // Refusing one of their references is the expected answer; refusing anything else means
      // the generated request never reached the code behind the validation.
      if (
        !expectNotFound &&
        refused.some((field) => !referenceFields.has(field.split('.').pop()!))
      ) {
        failures.push(
          `${where}: the generated request did not validate, so nothing behind it was tried ${response.body.slice(0, 300)}`,
        );
      }
      if (response.statusCode >= 500)
        failures.push(`${where} (server error) ${response.body.slice(0, 200)}`);
      if (expectNotFound && response.statusCode !== 404)
        failures.push(`${where}, expected 404 for their company ${response.body.slice(0, 200)}`);
      if (response.statusCode < 200 || response.statusCode >= 300) return;
      const leaked = [...response.body.matchAll(uuidPattern)]
        .map((m) => m[0].toLowerCase())
        .filter((id) => secrets.has(id) && !sent.includes(id));
      if (leaked.length > 0)
        failures.push(`${where} shows their ids ${[...new Set(leaked)].join(', ')}`);
      const shown = secretText?.exec(response.body);
      if (shown) failures.push(`${where} shows '${shown[0]}'`);
      if (request.hasIdInPath) {
        const body = response.headers['content-type']?.toString().includes('json')
          ? response.json()
          : response.body;
        if (unsafe(operation) || !isEmptyList(body))
          failures.push(`${where} for their record ${request.url}: ${response.body.slice(0, 200)}`);
      }
    };

    for (const [caller, headers] of callers) {
      // Without a Dataset-Id a company's route answers 400 and nothing else runs.
      const bare = await send(operation, request, { label: caller, headers: headers() });
      const datasetRoute = bare.statusCode === 400 && Boolean(bare.json().errors?.['Dataset-Id']);
      if (!datasetRoute) {
        judge(`by ${caller}`, bare);
        continue;
      }
      judge(
        `by ${caller} in its own company`,
        await send(operation, request, { label: caller, headers: headers(ownCompany) }),
      );
      judge(
        `by ${caller} with their company ${whose.company}`,
        await send(operation, request, { label: caller, headers: headers(whose.company) }),
        true,
      );
    }
  }
  return failures;
}

describe('the cross-tenant matrix', () => {
  it('walks every operation as A with B’s ids, company and references: no 2xx with B’s data, no 5xx, B unchanged', async () => {
    const before = await rowsOf(b.tenantId);
    const theirUuids = new Set([...before.matchAll(uuidPattern)].map((m) => m[0].toLowerCase()));
    theirUuids.add(b.tenantId);
    const walked: string[] = [];
    const failures = await walk(
      tenantB,
      [
        ['A’s session', (company) => a.headers(company ? { 'dataset-id': company } : {})],
        [
          'A’s key',
          (company) => ({
            authorization: `Bearer ${aKey}`,
            ...(company ? { 'dataset-id': company } : {}),
          }),
        ],
      ],
      theirUuids,
      null,
      walked,
    );
    expect(failures).toEqual([]);
    expect(walked.length).toBeGreaterThan(80);
    expect(await rowsOf(b.tenantId)).toBe(before);
  }, 120_000);

  it('walks every operation with a key bound to A’s company 1 against A’s company 2: none of its records, no tenant log, nothing changed', async () => {
    const before = await rowsOf(a.tenantId, siblingCompany);
    const failures = await walk(
      sibling,
      [
        [
          'A’s key bound to company 1',
          (company) => ({
            authorization: `Bearer ${aBoundKey}`,
            ...(company ? { 'dataset-id': company } : {}),
          }),
        ],
      ],
      await siblingSecrets(),
      // The company by name, and any row of another company or of the tenant itself (an activity
      // of the tenant's log says datasetId null): the walk's own refused calls add to that log.
      new RegExp(`${siblingName}|"datasetId":(?:null|(?!${ownCompany}[,}])\\d+)`),
    );
    expect(failures).toEqual([]);
    expect(await rowsOf(a.tenantId, siblingCompany)).toBe(before);
  }, 120_000);

  it('refuses a Viewer every unsafe operation (403) and every unsafe operation of a session without the XSRF header', async () => {
    const failures: string[] = [];
    for (const operation of operations().filter(unsafe)) {
      if (notTenantScoped.has(nameOf(operation))) continue;
      const request = requestFor(operation);
      if (!viewerMayCall.has(nameOf(operation))) {
        const response = await send(operation, request, {
          label: 'viewer',
          headers: viewer.headers({ 'dataset-id': ownCompany }),
        });
        if (response.statusCode !== 403)
          failures.push(
            `${nameOf(operation)} as a Viewer → ${response.statusCode} ${response.body.slice(0, 200)}`,
          );
      }
      const { 'x-xsrf-token': _omitted, ...withoutXsrf } = a.headers({ 'dataset-id': ownCompany });
      const response = await send(operation, request, { label: 'no xsrf', headers: withoutXsrf });
      if (
        response.statusCode !== 403 ||
        response.json().detail !== 'The XSRF token is missing or does not match.'
      ) {
        failures.push(
          `${nameOf(operation)} without X-XSRF-TOKEN → ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it("refuses A's completion of B's authorisation states, by session and by key, and leaves them unspent", async () => {
    const stripeState = (await call(b, 'POST', 'stripe/account/connect/start', {
      paymentProviderId: null,
    })) as { state: string };
    const goCardlessState = (await call(b, 'POST', 'gocardless/authorise/start')) as {
      state: string;
    };
    const before = await rowsOf(b.tenantId);
    const urls = [
      `stripe/account/connect?code=x&state=${encodeURIComponent(stripeState.state)}`,
      `gocardless/authorise/complete?code=x&state=${encodeURIComponent(goCardlessState.state)}`,
    ];
    for (const url of urls) {
      const bySession = await ctx.app.inject({
        method: 'POST',
        url: `/api/v0/${url}`,
        headers: a.headers({ 'dataset-id': ownCompany }),
      });
      expect(bySession.statusCode, url).toBe(400);
      expect(bySession.json().detail, url).toBe(providerConnectionMessages.stateMismatch);
      const byKey = await ctx.app.inject({
        method: 'POST',
        url: `/api/v0/${url}`,
        headers: { authorization: `Bearer ${aKey}`, 'dataset-id': ownCompany },
      });
      expect(byKey.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(byKey.statusCode, url).toBeLessThan(500);
    }
    expect(await rowsOf(b.tenantId)).toBe(before);
  });
});
