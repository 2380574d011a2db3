// Money-rules benchmark: the quote of a page of 1,000 accounting transactions
// (GET transactions/quotes) against the plain page (GET transactions), same data, same run.
// Target: the quoted page costs at most 1.5× the plain one.
//
//   npx tsx bench/money-rules.ts                 # PostgreSQL at BENCH_DATABASE_URL (default local)
//   BENCH_ROUNDS=40 BENCH_CLIENTS=2 npx tsx bench/money-rules.ts
//   npx tsx bench/money-rules.ts --rebuild        # drops and rebuilds its database
//
// One company of 5,000 accounts and 50,000 transactions beside a neighbour tenant; a settlement
// group of three configurations is the company default, a UK late-payment configuration too,
// a tenth of the accounts choose 'none' and every fifth invoice has a manual offer, so every
// quote walks generated offers, manual offers and statutory interest.
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.js';
import { loadConfig } from '../apps/api/src/config.js';
import { openPostgres } from '../apps/api/src/db/client.js';
import { accessKeys } from '../apps/api/src/db/schema.js';
import {
  companyPreferences,
  latePaymentConfigurations,
  settlementConfigurationGroups,
  settlementConfigurations,
} from '../apps/api/src/db/schema-money-rules.js';
import { generateKey } from '../apps/api/src/features/access-keys/access-keys.service.js';
import { generateReceivables } from '../apps/api/src/features/datasets/demo-data.js';
import { createTenant } from '../apps/api/src/features/tenants/tenants.service.js';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = 'ledgerline_bench_money';
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const clients = Number(process.env.BENCH_CLIENTS ?? 2);
const rebuild = process.argv.includes('--rebuild');
const size = {
  accounts: 5_000,
  transactions: 50_000,
  paymentRequests: 0,
  paymentTransactions: 0,
  banks: 0,
};

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

async function prepareDatabase() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists =
    (await admin.query('select 1 from pg_database where datname = $1', [databaseName])).rowCount ===
    1;
  if (exists && rebuild) await admin.query(`drop database ${databaseName} with (force)`);
  if (!exists || rebuild) await admin.query(`create database ${databaseName}`);
  await admin.end();
  const target = new URL(serverUrl);
  target.pathname = `/${databaseName}`;
  return target.toString();
}

async function seed(url: string) {
  const database = await openPostgres({ connectionString: url, poolSize: 8 });
  await database.migrate();
  const found = await database.raw.query(
    `select id::text as id from tenants where name = 'Money Bench Ltd'`,
  );
  let tenantId = found.rows[0]?.id as string | undefined;
  if (!tenantId) {
    const neighbour = await createTenant(database, {
      name: 'Money Neighbour Ltd',
      adminEmail: 'money-neighbour@example.com',
      adminName: 'N',
    });
    await database.db.transaction((tx) =>
      generateReceivables(tx, { tenantId: neighbour.tenantId, datasetId: 1 }, size),
    );
    const bench = await createTenant(database, {
      name: 'Money Bench Ltd',
      adminEmail: 'money-bench@example.com',
      adminName: 'B',
    });
    tenantId = bench.tenantId;
    const scope = { tenantId, datasetId: 1 };
    const started = performance.now();
    await database.db.transaction(async (tx) => {
      await generateReceivables(tx, scope, size, { analyze: true });
      const groupId = randomUUID();
      await tx
        .insert(settlementConfigurationGroups)
        .values({ ...scope, id: groupId, name: 'Standard terms', customerEnabled: true });
      const configuration = { ...scope, groupId, filterGroup: { filterConfigurations: [] } };
      await tx.insert(settlementConfigurations).values([
        {
          ...configuration,
          id: randomUUID(),
          type: 'PercentageDiscount',
          dateType: 'TransactionDate',
          numberOfDays: 10,
          percentageDiscount: '2',
        },
        {
          ...configuration,
          id: randomUUID(),
          type: 'PercentageDiscount',
          dateType: 'DueDate',
          numberOfDays: 5,
          percentageDiscount: '1',
        },
        {
          ...configuration,
          id: randomUUID(),
          type: 'AbsoluteDiscount',
          dateType: 'DueDate',
          numberOfDays: 0,
          amount: '25',
          currency: 'GBP',
          filterGroup: {
            filterConfigurations: [
              {
                filterType: 'TransactionAmount',
                isEnabled: true,
                amountType: 'OutstandingAmount',
                minimumTransactionValue: 1000,
                maximumTransactionValue: null,
              },
            ],
          },
        },
      ]);
      const latePaymentId = randomUUID();
      await tx
        .insert(latePaymentConfigurations)
        .values({
          ...scope,
          id: latePaymentId,
          type: 'Uk',
          name: 'UK statutory',
          gracePeriodInDays: 5,
        });
      await tx
        .insert(companyPreferences)
        .values({
          ...scope,
          defaultSettlementConfigurationGroupId: groupId,
          defaultLatePaymentConfigurationId: latePaymentId,
        });
      await tx.execute(sql`update accounts set disable_auto_apply_settlements = true
        where tenant_id = ${tenantId}::uuid and dataset_id = 1 and ('x' || substr(md5(id::text), 1, 2))::bit(8)::int % 10 = 0`);
      await tx.execute(sql`insert into settlement_offers (tenant_id, dataset_id, id, transaction_id, type, currency, amount, valid_until)
        select tenant_id, dataset_id, gen_random_uuid(), id, 'AbsoluteDiscount', currency, 10, now() + interval '30 days'
        from (select *, row_number() over (order by id) as n from transactions where tenant_id = ${tenantId}::uuid and dataset_id = 1) t
        where n % 5 = 0`);
    });
    await database.raw.query('vacuum analyze');
    log(
      `seeded 5,000 accounts and 50,000 transactions: ${Math.round(performance.now() - started)} ms`,
    );
  } else {
    log('reusing the bench data (--rebuild to make it again)');
  }
  const key = generateKey();
  await database.db.insert(accessKeys).values({
    tenantId,
    id: randomUUID(),
    kind: 'access',
    name: `money bench ${new Date().toISOString()}`,
    prefix: key.prefix,
    hash: key.hash,
    validUntil: new Date(Date.now() + 3_600_000),
  });
  return { database, key: key.value };
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main() {
  const url = await prepareDatabase();
  const { database, key } = await seed(url);
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'http://localhost:3000',
    OIDC_ISSUER: 'http://127.0.0.1:9/',
    DATABASE_URL: url,
  });
  const app = await buildApp({ config, database, webRoot: null });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { authorization: `Bearer ${key}`, 'dataset-id': '1' };
  const calls = {
    plain: `${address}/api/v0/transactions?itemsPerPage=1000&expand=account`,
    quoted: `${address}/api/v0/transactions/quotes?itemsPerPage=1000&expand=account&paidOn=2026-11-23`,
  };
  for (const [name, target] of Object.entries(calls)) {
    const response = await fetch(target, { headers });
    const body = (await response.json()) as {
      items: { quote?: { discount: number; fees: unknown[] } }[];
    };
    if (response.status !== 200)
      throw new Error(`${name}: ${response.status} ${JSON.stringify(body)}`);
    if (name === 'quoted') {
      const discounted = body.items.filter((item) => item.quote!.discount > 0).length;
      const withFees = body.items.filter((item) => item.quote!.fees.length > 0).length;
      log(
        `a quoted page: ${body.items.length} items, ${discounted} with a discount, ${withFees} with fees`,
      );
    }
  }
  const timings: Record<string, number[]> = { plain: [], quoted: [] };
  // Warm both, then alternate so the two share the machine's state.
  for (let round = -3; round < rounds; round++) {
    for (const [name, target] of Object.entries(calls)) {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          const response = await fetch(target, { headers });
          await response.arrayBuffer();
        }),
      );
      if (round >= 0) timings[name]!.push((performance.now() - started) / clients);
    }
  }
  const summary: Record<string, { p50: number; p95: number; mean: number }> = {};
  for (const [name, values] of Object.entries(timings)) {
    const sorted = [...values].sort((a, b) => a - b);
    summary[name] = {
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      mean: values.reduce((a, b) => a + b, 0) / values.length,
    };
    log(
      `${name.padEnd(6)} page of 1,000: p50 ${summary[name]!.p50.toFixed(1)} ms, p95 ${summary[name]!.p95.toFixed(1)} ms, mean ${summary[name]!.mean.toFixed(1)} ms per request (${clients} clients, ${rounds} rounds)`,
    );
  }
  const ratio = summary.quoted!.mean / summary.plain!.mean;
  log(`quoted / plain (mean): ${ratio.toFixed(2)}× — target ≤ 1.5×`);
  await app.close();
  await database.close();
  process.exitCode = ratio <= 1.5 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
