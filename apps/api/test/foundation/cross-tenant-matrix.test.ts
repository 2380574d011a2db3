import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { providerConnectionMessages, secretSentinel } from '@ledgerline/contract';
import { datasets, users } from '../../src/db/schema.js';
import { paymentProviderEvents } from '../../src/db/schema-providers.js';
import { webHookDeliveries, webHookEvents } from '../../src/db/schema-web-hooks.js';
import { waitFor } from '../wait.js';
import { generateReceivables } from '../../src/features/datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../app.js';

/*
 * The cross-tenant matrix (issue 9): every operation of the served OpenAPI document, so a route
 * added tomorrow is covered the day it is added. Tenant A calls each one with tenant B's ids in
 * the path, B's references in the query and the body (a minimal valid body generated from the
 * operation's schema, so validation does not hide the check) and B's company in Dataset-Id, by
 * session and by access key. A Viewer is refused every unsafe operation, and so is a session
 * without the XSRF header.
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
  'POST /api/v0/login', // exchanges an identity provider's token; no session yet
  'GET /api/v0/logout', // ends the caller's own session (walked, it would sign A out mid-matrix)
  // The payer page (issue 14) has no tenant and no sign-in: the request's id in its link is what
  // gives access, and any caller with the link may see and pay it. A payment id of another request
  // is refused (test/pay/pay-page.test.ts "never shows or settles a payment through another
  // request's id"); a notification reaches only its own configuration's payments
  // (test/pay/provider-notifications.test.ts).
  'GET /api/v0/pay/{id}',
  'GET /api/v0/pay/{id}/logo',
  'POST /api/v0/pay/{id}/payments',
  'GET /api/v0/pay/{id}/payments/{paymentId}',
  'POST /api/v0/pay/{id}/payments/{paymentId}/sandbox',
  'POST /api/v0/pay/{id}/payments/{paymentId}/transafe', // test/pay/transafe-end-to-end.test.ts, "another request's id"
  'POST /api/v0/pay/{id}/payments/{paymentId}/opayo', // test/pay/opayo-pi-end-to-end.test.ts, "another request's id"
  // The card issuer's 3-D Secure page posts the payer back; only a payment of that request waiting
  // for 3-D Secure is acted on (test/pay/opayo-pi-end-to-end.test.ts, "not waiting").
  'POST /api/v0/pay/{id}/payments/{paymentId}/3ds',
  'POST /api/v0/webhooks/{provider}/{configurationId}',
]);

/** Unsafe operations a Viewer may call: they change only the caller's own things. */
const viewerMayCall = new Set([
  'PUT /api/v0/users/me/settings', // the user's own display settings (spec 2 §9)
  'POST /api/v0/company-settings/custom-host-id/example', // computes an example from the body, stores nothing
]);

const ownCompany = '1';
/** B has companies 1, 2 and 3; A only company 1, so 3 is a company of another tenant only. */
const foreignCompany = '3';

let ctx: TestContext;
let document: {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
};
let a: SignedIn;
let b: SignedIn;
let viewer: SignedIn;
let aKey: string;
/** B's ids by the resource they name, for paths, queries and bodies. */
const theirs: Record<string, string> = {};

const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

async function call(who: SignedIn, method: string, url: string, payload?: object) {
  const response = await ctx.app.inject({
    method: method as 'GET',
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': ownCompany }),
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

/** Every row of every tenant-owned table of one tenant, as text: what A must not change. */
async function rowsOf(tenantId: string): Promise<string> {
  const tables = (await ctx.database.db.execute(sql`
    select table_name from information_schema.columns
    where table_schema = 'public' and column_name = 'tenant_id' order by table_name`)) as unknown as {
    rows: { table_name: string }[];
  };
  const dump: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = (await ctx.database.db.execute(
      sql`select * from ${sql.identifier(table_name)} where tenant_id = ${tenantId} order by 1, 2, 3`,
    )) as unknown as { rows: unknown[] };
    dump.push(`${table_name}: ${JSON.stringify(rows.rows)}`);
  }
  return dump.join('\n');
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

  const [first] = await ctx.database.db
    .select()
    .from(datasets)
    .where(eq(datasets.tenantId, b.tenantId));
  for (const id of [2, 3])
    await ctx.database.db
      .insert(datasets)
      .values({ ...first!, id, name: `B company ${id}`, createdAt: undefined });
  // Same company id (1) in both tenants, so a check on the company alone would not hold.
  const size = {
    accounts: 3,
    transactions: 4,
    paymentRequests: 2,
    paymentTransactions: 24,
    banks: 1,
  };
  for (const who of [a, b]) {
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size),
    );
  }

  const first1 = async (url: string) => (await call(b, 'GET', url)).items[0];
  const account = await first1('accounts?itemsPerPage=1');
  const payer = await first1(`accounts/${account.id}/payers?itemsPerPage=1`);
  const transaction = await first1('transactions?itemsPerPage=1&filter=paidStatus eq Unpaid');
  const paymentRequest = await first1('payment-requests?itemsPerPage=1');
  const bank = await first1('banks?itemsPerPage=1');
  const pending = await first1('payment-transactions?itemsPerPage=1&filter=status eq Pending');
  // B's payer is not mailed about the capture: a mail job finishing later would change B's rows
  // (notification_deliveries) after the matrix counted them.
  await call(b, 'PUT', 'notifications/customer', {
    notificationSettings: [{ notificationName: 'PaymentPendingCompleted', isEnabled: false }],
  });
  await call(b, 'POST', `payment-transactions/${pending.id}/pending/capture`, {
    amountToCapture: 1,
  });
  const event = (await call(b, 'GET', `provider-events/records/${pending.id}`)).items[0];
  const offer = await call(b, 'POST', `transactions/${transaction.id}/settlement-offers`, {
    type: 'AbsoluteDiscount',
    amount: 1,
    description: 'B offer',
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
    headers: b.headers({ 'dataset-id': ownCompany, 'content-type': file.contentType }),
    payload: file.payload,
  });
  const later = new Date(Date.now() + 86_400_000).toISOString();
  const accessKey = await call(b, 'POST', 'access-keys', { name: 'B key', validUntil: later });
  const subscriptionKey = await call(b, 'POST', 'subscription-keys', {
    name: 'B subscription',
    validUntil: later,
  });
  const user = await call(b, 'POST', 'users', {
    name: 'B colleague',
    email: `colleague-${b.userId.slice(0, 8)}@example.com`,
    role: 'Standard',
  });
  // The money rules' and payment providers' records (issues 10–12): a settlement group with one
  // configuration, a late payment configuration and a payment provider configuration, each B's
  // company default, so a read of A's own preferences or default would show them if it leaked.
  const group = await call(b, 'POST', 'settlement-configuration-groups', { name: 'B group' });
  const withConfiguration = await call(
    b,
    'POST',
    `settlement-configuration-groups/${group.id}/configurations`,
    { type: 'AbsoluteDiscount', dateType: 'DueDate', numberOfDays: 5, amount: 1, currency: 'GBP' },
  );
  const latePayment = await call(b, 'POST', 'late-payment-configurations', {
    type: 'Uk',
    name: 'B late payments',
    gracePeriodInDays: 5,
  });
  await call(b, 'PUT', 'company-settings/preferences', {
    defaultSettlementConfigurationGroupId: group.id,
    defaultLatePaymentConfigurationId: latePayment.id,
  });
  const provider = await call(b, 'POST', 'providers', {
    providerName: 'Sandbox',
    name: 'B sandbox',
    enabled: true,
    displayPriority: 1,
    isTest: true,
  });
  await call(b, 'PUT', 'providers/default', { paymentProviderId: provider.id });
  // A provider event of B's configuration (issue 12: providers/{id}/events); the Sandbox makes no
  // connection exchange of its own, so it is written as a connection test would keep it.
  await ctx.database.db.insert(paymentProviderEvents).values({
    tenantId: b.tenantId,
    datasetId: 1,
    id: randomUUID(),
    paymentProviderId: provider.id,
    providerName: 'Sandbox',
    eventType: 'version',
    recordType: 'vendor',
    recordId: 'b-vendor',
    status: '0000',
    payload:
      '{"request":{"method":"POST","url":"https://b.example"},"response":{"status":200,"body":""}}',
  });
  Object.assign(theirs, {
    'settlement-configuration-groups': group.id,
    configurations: withConfiguration.configurations[0].id,
    'late-payment-configurations': latePayment.id,
    providers: provider.id,
    'payment-provider': provider.id, // stripe/… and gocardless/payment-provider/{id}
    'data-sets': foreignCompany,
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
    resources: accessKey.id, // the audit trail of B's key
  });
  aKey = (await call(a, 'POST', 'access-keys', { name: 'A connector', validUntil: later }))
    .accessKey;
  // A's custom host id rebuild needs a saved parse value, so the walk reaches the rebuild itself.
  await call(a, 'PUT', 'company-settings/custom-host-id', {
    createOption: 'AlwaysCreate',
    updateOption: 'AlwaysCreate',
    trimWhiteSpace: true,
    parseValue: '{transactionReference}',
  });
  // Web hooks (issue 15): B's endpoint, switched off so nothing is sent to it, and a delivery of
  // one of B's events; every B event dispatched first, so B's rows stay still during the walk.
  const endpoint = await call(b, 'POST', 'web-hooks/endpoints', {
    url: 'https://127.0.0.1:9/b-hooks',
    disabled: true,
  });
  await waitFor(async () => {
    const [left] = await ctx.database.db
      .select({ n: count() })
      .from(webHookEvents)
      .where(and(eq(webHookEvents.tenantId, b.tenantId), isNull(webHookEvents.dispatchedOn)));
    return left!.n === 0 ? true : undefined;
  });
  const [bEvent] = await ctx.database.db
    .select()
    .from(webHookEvents)
    .where(eq(webHookEvents.tenantId, b.tenantId))
    .limit(1);
  const [delivery] = await ctx.database.db
    .insert(webHookDeliveries)
    .values({
      tenantId: b.tenantId,
      datasetId: 1,
      eventId: bEvent!.id,
      eventSeq: bEvent!.seq,
      endpointId: endpoint.id,
      recordId: bEvent!.recordId,
      status: 'Succeeded',
      attempts: 1,
      statusCode: 200,
      nextAttemptOn: null,
    })
    .returning();
  Object.assign(theirs, { endpoints: endpoint.id, deliveries: delivery!.id });
}, 60_000);
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
function theirIdFor(name: string, resource: string): string | undefined {
  const byName: Record<string, string> = {
    id: resource,
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
    configurationId: 'configurations',
    latePaymentConfigurationId: 'late-payment-configurations',
    latePaymentConfigurationGroupId: 'late-payment-configurations',
    defaultLatePaymentConfigurationId: 'late-payment-configurations',
    paymentProviderId: 'providers',
  };
  const key = byName[name] ?? (name.endsWith('Id') ? `${name.slice(0, -2)}s` : undefined);
  return key === undefined ? undefined : theirs[key];
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
function sample(raw: Schema, name: string, resource: string): unknown {
  const schema = resolve(raw);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf']) {
    const variants = schema[key] as Schema[] | undefined;
    if (variants) {
      const chosen =
        variants.map(resolve).find((v) => v.type !== 'null' && !('const' in v && v.const === '')) ??
        variants[0]!;
      return sample(chosen, name, resource);
    }
  }
  if (Array.isArray(schema.allOf))
    return Object.assign(
      {},
      ...(schema.allOf as Schema[]).map((part) => sample(part, name, resource)),
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
        const theirId = theirIdFor(property, resource);
        if (property in fieldValues) value[property] = fieldValues[property];
        // Every reference is sent, required or not: that is what the matrix is about.
        else if (required.has(property) || theirId !== undefined)
          value[property] = sample(propertySchema, property, resource);
      }
      return value;
    }
    case 'array':
      return Array.from(
        { length: Number(schema.minItems ?? 0) || (theirIdFor(name, resource) ? 1 : 0) },
        () => sample((schema.items ?? {}) as Schema, name, resource),
      );
    case 'integer':
    case 'number': {
      if (/datasetid$/i.test(name) || (name === 'id' && resource === 'data-sets'))
        return Number(foreignCompany);
      const minimum =
        schema.minimum ??
        (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1);
      return Math.min(Number(minimum), Number(schema.maximum ?? Number.MAX_SAFE_INTEGER));
    }
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'uuid') return theirIdFor(name, resource) ?? theirs.accounts;
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (schema.format === 'date')
        return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      if (schema.format === 'email') return 'matrix@example.com';
      const theirId = theirIdFor(name, resource);
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
function requestFor(operation: Operation) {
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
      const value = theirs[owner];
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
    const theirId = theirIdFor(parameter.name, resource);
    if (
      parameter.required ||
      (theirId !== undefined && parameter.name !== 'id') ||
      (parameter.name === 'id' && parameter.schema?.format === 'uuid')
    ) {
      const value =
        parameter.name === 'id' && parameter.schema?.format === 'uuid' && resource === ''
          ? theirs['provider-events']
          : sample(
              parameter.schema ?? {},
              parameter.name,
              theirs[resource] ? resource : 'accounts',
            );
      query.set(parameter.name, String(value));
    }
  }
  const target = query.size > 0 ? `${url}?${query}` : url;
  const body = operation.body
    ? (sample(
        operation.body,
        '',
        resource === '' ? defaultResource(operation.path) : resource,
      ) as object)
    : undefined;
  // An account reference is the ERP's key, not a record id: A may have (or create) its own
  // account with the reference B uses, so only B's ids in the answer would be a leak.
  const hasIdInPath = resource !== '' && resource !== 'by-reference';
  return { url: target, body, hasIdInPath };
}

/** The resource an `id` field of a body names when the path has none (PUT /banks). */
function defaultResource(path: string): string {
  const segment = path
    .split('/')
    .filter((s) => s && !s.startsWith('{'))
    .pop()!;
  return segment in theirs ? segment : (path.split('/')[3] ?? '');
}

interface Probe {
  label: string;
  headers: Record<string, string>;
}

/** What a file upload (a document, the allocated-status import) sends: B's payment ids. */
const uploadedCsv = () =>
  `PaymentTransactionId,AllocatedStatus\r\n${theirs['payment-transactions']},Error\r\n`;

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
      : multipart('matrix.csv', Buffer.from(uploadedCsv()));
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

describe('the cross-tenant matrix', () => {
  it('walks every operation as A with B’s ids, company and references: no 2xx with B’s data, no 5xx, B unchanged', async () => {
    const before = await rowsOf(b.tenantId);
    const theirUuids = new Set([...before.matchAll(uuidPattern)].map((m) => m[0].toLowerCase()));
    theirUuids.add(b.tenantId);
    const failures: string[] = [];
    const walked: string[] = [];
    const bySession = (company?: string) => a.headers(company ? { 'dataset-id': company } : {});
    const byKey = (company?: string) => ({
      authorization: `Bearer ${aKey}`,
      ...(company ? { 'dataset-id': company } : {}),
    });

    for (const operation of operations()) {
      if (notTenantScoped.has(nameOf(operation))) continue;
      walked.push(nameOf(operation));
      const request = requestFor(operation);
      const referenceFields = fieldsHoldingIds(request.body);
      const sent =
        `${request.url} ${JSON.stringify(request.body ?? '')} ${operation.upload ? uploadedCsv() : ''}`.toLowerCase();
      const judge = (label: string, response: LightMyRequestResponse, expectNotFound = false) => {
        const where = `${nameOf(operation)} ${label} → ${response.statusCode}`;
        const refused = Object.keys(
          response.statusCode === 400 ? (response.json().errors ?? {}) : {},
        );
        // Refusing one of B's references is the expected answer; refusing anything else means
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
          failures.push(
            `${where}, expected 404 for another tenant’s company ${response.body.slice(0, 200)}`,
          );
        if (response.statusCode < 200 || response.statusCode >= 300) return;
        const leaked = [...response.body.matchAll(uuidPattern)]
          .map((m) => m[0].toLowerCase())
          .filter((id) => theirUuids.has(id) && !sent.includes(id));
        if (leaked.length > 0)
          failures.push(`${where} shows B’s ids ${[...new Set(leaked)].join(', ')}`);
        if (request.hasIdInPath) {
          const body = response.headers['content-type']?.toString().includes('json')
            ? response.json()
            : response.body;
          if (unsafe(operation) || !isEmptyList(body))
            failures.push(`${where} for B’s record ${request.url}: ${response.body.slice(0, 200)}`);
        }
      };

      for (const [caller, headers] of [
        ['session', bySession],
        ['key', byKey],
      ] as const) {
        // Without a Dataset-Id a company's route answers 400 and nothing else runs.
        const bare = await send(operation, request, { label: caller, headers: headers() });
        const datasetRoute = bare.statusCode === 400 && Boolean(bare.json().errors?.['Dataset-Id']);
        if (!datasetRoute) {
          judge(`as A by ${caller}`, bare);
          continue;
        }
        judge(
          `as A by ${caller} in A’s company`,
          await send(operation, request, { label: caller, headers: headers(ownCompany) }),
        );
        judge(
          `as A by ${caller} with B’s company ${foreignCompany}`,
          await send(operation, request, { label: caller, headers: headers(foreignCompany) }),
          true,
        );
      }
    }

    expect(failures).toEqual([]);
    expect(walked.length).toBeGreaterThan(80);
    expect(await rowsOf(b.tenantId)).toBe(before);
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

  it("refuses A's completion of B's authorisation states (issue 20 item 9), by session and by key, and leaves them unspent", async () => {
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
