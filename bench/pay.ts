// Payer page benchmark:
//  1. GET /api/v0/pay/{id} with 20 concurrent clients against a bare Fastify route answering a
//     constant, in the same run and process (target: the page at ≥ 30 % of the baseline's rate);
//  2. provider notifications: N signed Sandbox `Paid` events for N started payments, with money
//     going back mixed in: a provider-initiated part refund of every tenth payment and a
//     chargeback (dispute Opened, then Lost) of every twentieth, each sent after its payment's
//     `Paid`; a tenth of all events delivered twice. Timed from the first POST until every one is
//     settled; then checked exactly once: every event stored once, every payment Paid (or Disputed),
//     one refund per refunded payment, one dispute per disputed one, and the money still allocated
//     and given back exactly what the events say (target ≥ 300 events/s).
//
//   npx tsx bench/pay.ts                          # PostgreSQL at BENCH_DATABASE_URL (default local)
//   BENCH_SECONDS=5 BENCH_CLIENTS=20 BENCH_EVENTS=2000 npx tsx bench/pay.ts
//
// The database `ledgerline_bench_pay` is made anew each run (it is small).
import Fastify from 'fastify';
import pg from 'pg';
import { and, eq } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { buildApp } from '../apps/api/src/app.js';
import { loadConfig } from '../apps/api/src/config.js';
import { openPostgres } from '../apps/api/src/db/client.js';
import { createSecretBox } from '../apps/api/src/platform/secrets.js';
import { paymentProviders } from '../apps/api/src/db/schema-providers.js';
import { datasets } from '../apps/api/src/db/schema.js';
import {
  accounts,
  paymentRequestAllocations,
  paymentRequests,
  paymentTransactions,
  settlementOffers,
  transactions,
} from '../apps/api/src/db/schema-receivables.js';
import { payQuotes } from '../apps/api/src/db/schema-pay.js';
import {
  companyPreferences,
  latePaymentConfigurations,
  settlementConfigurationGroups,
  settlementConfigurations,
} from '../apps/api/src/db/schema-money-rules.js';
import { createTenant } from '../apps/api/src/features/tenants/tenants.service.js';
import {
  sandboxNotificationSecret,
  signSandboxNotification,
} from '../apps/api/src/providers/sandbox/sandbox.checkout.js';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// BENCH_DATABASE_NAME: another name, so two runs side by side (two helpers) do not drop each other's.
const databaseName = process.env.BENCH_DATABASE_NAME ?? 'ledgerline_bench_pay';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const clients = Number(process.env.BENCH_CLIENTS ?? 20);
const eventCount = Number(process.env.BENCH_EVENTS ?? 2000);
const notificationKey = randomBytes(24).toString('hex');

// Statements sent to the database (every pg.Client#query: the app's and the jobs'), so a run under
// load can still say what an event costs; the bench's own checks are not counted
// (BENCH_STATEMENTS=1 also lists the commonest statements of the notifications' part).
// pg-boss's polling for jobs goes by the clock, not by the events: counted apart.
const statements = { counting: false, total: 0, polling: 0, byText: new Map<string, number>() };
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (statements.counting) {
    statements.total += 1;
    const first = args[0] as string | { text?: string };
    const full = typeof first === 'string' ? first : (first?.text ?? '?');
    if (/^\s*WITH next as \(\s*SELECT id, singleton_key/.test(full)) statements.polling += 1;
    if (process.env.BENCH_STATEMENTS === '1') {
      const text = full.replace(/\s+/g, ' ').slice(0, 90);
      statements.byText.set(text, (statements.byText.get(text) ?? 0) + 1);
    }
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

async function prepareDatabase() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const target = new URL(serverUrl);
  target.pathname = `/${databaseName}`;
  return target.toString();
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function seed(database: Awaited<ReturnType<typeof openPostgres>>, secrets: ReturnType<typeof createSecretBox>) {
  const { tenantId } = await createTenant(database, {
    name: 'Pay Bench Ltd',
    adminEmail: 'pay-bench@example.com',
    adminName: 'B',
  });
  const scope = { tenantId, datasetId: 1 };
  const accountId = randomUUID();
  const providerId = randomUUID();
  const pageRequestId = randomUUID();
  await database.db.transaction(async (tx) => {
    // The Sandbox test provider is offered in demo companies only.
    await tx.update(datasets).set({ type: 'Demo' }).where(and(eq(datasets.tenantId, tenantId), eq(datasets.id, 1)));
    await tx.insert(accounts).values({ ...scope, id: accountId, accountReference: 'BENCH-1', name: 'Bench Customer Ltd' });
    await tx.insert(paymentProviders).values({
      ...scope,
      id: providerId,
      providerName: 'Sandbox',
      name: 'Card (test)',
      enabled: true,
      isTest: true,
      isDefault: true,
      credentialsSealed: secrets.seal('{}'),
      paymentMethodConfigurations: [{ paymentMethodType: 'Card', enabled: true, filterGroup: null }],
    });
    // The page's request: three invoices, a generated 2 % offer, a manual offer and statutory fees.
    const groupId = randomUUID();
    await tx.insert(settlementConfigurationGroups).values({ ...scope, id: groupId, name: 'Terms', customerEnabled: true });
    await tx.insert(settlementConfigurations).values({
      ...scope,
      id: randomUUID(),
      groupId,
      type: 'PercentageDiscount',
      dateType: 'TransactionDate',
      numberOfDays: 10,
      percentageDiscount: '2',
    });
    const lateId = randomUUID();
    await tx.insert(latePaymentConfigurations).values({ ...scope, id: lateId, type: 'Uk', name: 'UK statutory' });
    await tx.insert(companyPreferences).values({ ...scope, defaultSettlementConfigurationGroupId: groupId, defaultLatePaymentConfigurationId: lateId });
    const invoices = [
      { amount: '1200', date: day(-3), due: day(27) },
      { amount: '640.50', date: day(-70), due: day(-40) },
      { amount: '99.99', date: day(-8), due: day(22) },
    ].map((invoice, i) => ({
      ...scope,
      id: randomUUID(),
      accountId,
      transactionReference: `INV-BENCH-${i}`,
      transactionType: 'Invoice',
      transactionDate: invoice.date,
      dueDate: invoice.due,
      currency: 'GBP',
      transactionAmount: invoice.amount,
    }));
    await tx.insert(transactions).values(invoices);
    await tx.insert(settlementOffers).values({
      ...scope,
      id: randomUUID(),
      transactionId: invoices[2]!.id,
      type: 'AbsoluteDiscount',
      currency: 'GBP',
      amount: '5',
      validUntil: day(3),
    });
    await tx.insert(paymentRequests).values({
      ...scope,
      id: pageRequestId,
      requestType: 'Transaction',
      usageType: 'Single',
      currency: 'GBP',
      amountToPay: '1940.49',
      accountId,
    });
    await tx.insert(paymentRequestAllocations).values(
      invoices.map((invoice) => ({ ...scope, paymentRequestId: pageRequestId, transactionId: invoice.id })),
    );
    // The notifications' payments: one Account request each, started on the page (Processing).
    const payments = Array.from({ length: eventCount }, (_, i) => ({ requestId: randomUUID(), paymentId: randomUUID(), i }));
    for (let from = 0; from < payments.length; from += 500) {
      const chunk = payments.slice(from, from + 500);
      await tx.insert(paymentRequests).values(
        chunk.map((p) => ({ ...scope, id: p.requestId, requestType: 'Account', usageType: 'Single', currency: 'GBP', amountToPay: '25', accountId })),
      );
      await tx.insert(paymentTransactions).values(
        chunk.map((p) => ({
          ...scope,
          id: p.paymentId,
          type: 'Payment',
          status: 'Processing',
          ledgerlineReference: `LLB${String(p.i).padStart(9, '0')}`,
          statusDateTime: new Date(),
          totalAmount: '25',
          currency: 'GBP',
          paymentRequestId: p.requestId,
          accountId,
          paymentProviderId: providerId,
          paymentProviderName: 'Sandbox',
          paymentProviderReference: `sbx_pay_bench_${p.i}`,
        })),
      );
      await tx.insert(payQuotes).values(
        chunk.map((p) => ({
          ...scope,
          paymentTransactionId: p.paymentId,
          paymentRequestId: p.requestId,
          offered: { quotedOn: day(0), invoices: [], discountTotal: '0', feeTotal: '0', total: '25' },
        })),
      );
    }
    return payments;
  });
  await database.raw.query('vacuum analyze');
  const payments = await database.raw.query(
    `select id::text as id from payment_transactions where tenant_id = $1 and status = 'Processing'`,
    [tenantId],
  );
  return { tenantId, providerId, pageRequestId, paymentIds: payments.rows.map((r) => r.id as string) };
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `clients` loops calling `target` for `seconds`. */
async function load(name: string, target: string) {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const response = await fetch(target);
        await response.arrayBuffer();
        if (response.status !== 200) errors += 1;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, requests: latencies.length, errors, p50: percentile(latencies, 50), p95: percentile(latencies, 95), perSecond: latencies.length / elapsed };
}

async function main() {
  const url = await prepareDatabase();
  const database = await openPostgres({ connectionString: url, poolSize: 16 });
  await database.migrate();
  const secrets = createSecretBox(randomBytes(32));
  log(`seeding one page request and ${eventCount} started payments`);
  const seeded = await seed(database, secrets);
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'http://localhost:3000',
    OIDC_ISSUER: 'http://127.0.0.1:9/',
    DATABASE_URL: url,
    RATE_LIMIT_PAY_PER_MINUTE: '100000000',
    SANDBOX_NOTIFICATION_KEY: notificationKey,
  });
  const app = await buildApp({ config, database, webRoot: null, secrets, mailer: { send: async () => undefined } });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const baseline = Fastify({ logger: false });
  baseline.get('/constant', async () => ({ state: 'Expired' }));
  await baseline.listen({ port: 0, host: '127.0.0.1' });
  const baselineAddress = baseline.server.address() as { port: number };

  const pageUrl = `${address}/api/v0/pay/${seeded.pageRequestId}`;
  const page = (await (await fetch(pageUrl)).json()) as { state: string; invoices: unknown[]; discountTotal: number; feeTotal: number; amountToPay: number; methods: unknown[] };
  log(`the page: ${page.state}, ${page.invoices.length} invoices, discount ${page.discountTotal}, fees ${page.feeTotal}, to pay ${page.amountToPay}, ${page.methods.length} method(s)`);
  const results = [
    await load('baseline: bare Fastify constant', `http://127.0.0.1:${baselineAddress.port}/constant`),
    await load('GET /api/v0/pay/{id} (3 invoices, offers, fees, methods)', pageUrl),
    // The app's own overhead (hooks, rate limit, headers, serializer) with no database read.
    await load('GET /api/v0/pay/not-an-id (the app alone: no read, Expired)', `${address}/api/v0/pay/not-an-id`),
  ];
  const base = results[0]!.perSecond;
  console.log(`\n${clients} concurrent clients, ${seconds} s each\n`);
  console.log('| call | requests | errors | p50 ms | p95 ms | req/s | of baseline |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results)
    console.log(`| ${r.name} | ${r.requests} | ${r.errors} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${Math.round(r.perSecond)} | ${((r.perSecond / base) * 100).toFixed(0)} % |`);

  // Notifications: every payment's Paid event; money going back for some of them, each sent a
  // while after its payment's Paid (a provider tells of a refund or a dispute later); a tenth of
  // all events sent twice; 20 senders at once.
  const secret = sandboxNotificationSecret(notificationKey, seeded.providerId)!;
  const hookUrl = `${address}/api/v0/webhooks/sandbox/${seeded.providerId}`;
  // BENCH_MONEY_BACK=0: Paid events only (the stream before refunds and disputes), for comparison in one run.
  const mixed = process.env.BENCH_MONEY_BACK !== '0';
  const refunded = (i: number) => mixed && i % 10 === 3;
  const disputed = (i: number) => mixed && i % 20 === 7;
  const paidBodies = seeded.paymentIds.map((paymentId, i) =>
    JSON.stringify({ id: `evt_bench_${i}`, type: 'payment.paid', data: { paymentId, status: 'Paid' } }),
  );
  // Money going back for payment i, to be sent after the Paid of payment i + `later`.
  const later = 200;
  const backAfter = new Map<number, string[]>();
  const sendAfter = (i: number, body: string) => {
    const at = Math.min(i + later, seeded.paymentIds.length - 1);
    backAfter.set(at, [...(backAfter.get(at) ?? []), body]);
  };
  seeded.paymentIds.forEach((paymentId, i) => {
    if (refunded(i))
      sendAfter(
        i,
        JSON.stringify({
          id: `evt_bench_refund_${i}`,
          type: 'refund.succeeded',
          data: { paymentId, status: 'Paid', refund: { reference: `sbx_refund_bench_${i}`, amount: '5.00', status: 'Succeeded', reason: 'Goodwill' } },
        }),
      );
    if (disputed(i)) {
      const dispute = { reference: `sbx_dispute_bench_${i}`, amount: '25.00', currency: 'GBP', reason: 'fraudulent' };
      sendAfter(
        i,
        JSON.stringify({ id: `evt_bench_dispute_opened_${i}`, type: 'dispute.opened', data: { paymentId, status: 'Paid', dispute: { ...dispute, stage: 'Opened', respondBy: new Date(Date.now() + 7 * 86_400_000).toISOString() } } }),
      );
      sendAfter(
        i + later,
        JSON.stringify({ id: `evt_bench_dispute_lost_${i}`, type: 'dispute.lost', data: { paymentId, status: 'Paid', dispute: { ...dispute, stage: 'Lost' } } }),
      );
    }
  });
  const bodies = paidBodies.flatMap((body, i) => [body, ...(backAfter.get(i) ?? [])]);
  const refunds = seeded.paymentIds.filter((_, i) => refunded(i)).length;
  const disputes = seeded.paymentIds.filter((_, i) => disputed(i)).length;
  // A body sent twice is sent again right after the first delivery was answered (never before it).
  const deliveries = bodies.flatMap((body, i) => (i % 10 === 0 ? [body, body] : [body]));
  let next = 0;
  let refused = 0;
  statements.counting = true;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < deliveries.length) {
        const body = deliveries[next++]!;
        const response = await fetch(hookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'sandbox-signature': signSandboxNotification(secret, body) },
          body,
        });
        await response.arrayBuffer();
        if (response.status !== 200) refused += 1;
      }
    }),
  );
  const received = (performance.now() - started) / 1000;
  // The bench's own look (one statement each) is taken off the count.
  let ownStatements = 0;
  const count = async (text: string) => {
    if (statements.counting) ownStatements += 1;
    return Number((await database.raw.query(text, [seeded.tenantId])).rows[0]!.n);
  };
  const unprocessed = `select count(*)::int as n from provider_notifications where tenant_id = $1 and processed_at is null`;
  const leftAtIntakeEnd = await count(unprocessed);
  while ((await count(unprocessed)) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  const settled = (performance.now() - started) / 1000;
  statements.counting = false;
  statements.total -= ownStatements;
  const stored = await count(`select count(*)::int as n from provider_notifications where tenant_id = $1`);
  const paid = await count(`select count(*)::int as n from payment_transactions where tenant_id = $1 and type = 'Payment' and status = 'Paid' and allocated_status = 'AutoAllocated'`);
  const disputedPayments = await count(`select count(*)::int as n from payment_transactions where tenant_id = $1 and type = 'Payment' and status = 'Disputed'`);
  const allocations = await count(`select count(*)::int as n from payment_allocations where tenant_id = $1`);
  const twice = await count(`select count(*)::int as n from (select payment_transaction_id from payment_allocations where tenant_id = $1 group by 1 having count(*) > 1) x`);
  const completed = await count(`select count(*)::int as n from payment_requests where tenant_id = $1 and request_status = 'Completed'`);
  const refundRows = await count(`select count(*)::int as n from payment_transactions where tenant_id = $1 and type = 'Refund' and status = 'Refunded' and total_amount = 5`);
  const refundedTwice = await count(`select count(*)::int as n from (select refund_of_id from payment_transactions where tenant_id = $1 and type = 'Refund' group by 1 having count(*) > 1) x`);
  const lost = await count(`select count(*)::int as n from payment_disputes where tenant_id = $1 and stage = 'Lost' and reversed_amount = 25`);
  const pence = async (column: string) =>
    Math.round(Number((await database.raw.query(`select coalesce(sum(${column}), 0)::text as n from payment_allocations where tenant_id = $1`, [seeded.tenantId])).rows[0]!.n) * 100);
  const heldPence = await pence('allocated_amount');
  const givenBackPence = await pence('reversed_amount');
  const expectedHeld = seeded.paymentIds.length * 2500 - refunds * 500 - disputes * 2500;
  console.log(
    `\nNotifications: ${deliveries.length} deliveries of ${bodies.length} events (${paidBodies.length} Paid, ${refunds} refunds, ${2 * disputes} dispute events; ` +
      `${deliveries.length - bodies.length} sent twice), ${refused} refused; ` +
      `all answered in ${received.toFixed(2)} s (${Math.round(deliveries.length / received)}/s), all settled in ${settled.toFixed(2)} s: ` +
      `${Math.round(bodies.length / settled)} events/s end to end; ${leftAtIntakeEnd} were still waiting when the last was answered and ` +
      `were settled in ${(settled - received).toFixed(2)} s more (${Math.round(leftAtIntakeEnd / Math.max(settled - received, 0.001))} events/s with no intake beside).`,
  );
  console.log(
    `Statements: ${statements.total} from the first delivery until all were settled, ${(statements.total / bodies.length).toFixed(2)} per event (intake, settling, jobs); ` +
      `${statements.polling} of them pg-boss polling for jobs, ${((statements.total - statements.polling) / bodies.length).toFixed(2)} per event without.`,
  );
  if (process.env.BENCH_STATEMENTS === '1')
    for (const [text, n] of [...statements.byText].sort((x, y) => y[1] - x[1]).slice(0, 60))
      console.log(`${String(n).padStart(7)}  ${text}`);
  console.log(`Load average during the run: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(', ')} on ${(await import('node:os')).cpus().length} cores.`);
  const checks: [string, number, number][] = [
    ['events stored', stored, bodies.length],
    ['payments Paid', paid, paidBodies.length - disputes],
    ['payments Disputed', disputedPayments, disputes],
    ['allocations', allocations, paidBodies.length],
    ['payments allocated twice', twice, 0],
    ['requests Completed', completed, paidBodies.length - disputes],
    ['refunds of 5.00 Refunded', refundRows, refunds],
    ['payments refunded twice', refundedTwice, 0],
    ['disputes Lost with 25.00 reversed', lost, disputes],
    ['pence still allocated', heldPence, expectedHeld],
    ['pence given back', givenBackPence, refunds * 500 + disputes * 2500],
  ];
  console.log(`Exactly once: ${checks.map(([name, got, want]) => `${name} ${got} (expected ${want})`).join(', ')}.`);
  const wrong = checks.filter(([, got, want]) => got !== want);
  if (wrong.length > 0) {
    console.error(`NOT exactly once: ${wrong.map(([name]) => name).join(', ')}`);
    process.exitCode = 1;
  }
  await app.close();
  await baseline.close();
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
