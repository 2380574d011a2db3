import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type {
  PageQuery,
  PaymentMethodConfiguration,
  PaymentProviderName,
  paymentProviderQuery,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';

export type PaymentProviderRow = typeof paymentProviders.$inferSelect;
type ProviderFields = (typeof paymentProviderQuery)['fields'];

export interface PaymentProviderValues {
  providerName: PaymentProviderName;
  name: string;
  description: string | null;
  enabled: boolean;
  displayPriority: number;
  isTest: boolean;
  settings: Record<string, unknown>;
  credentialsSealed: string;
  paymentMethodConfigurations: PaymentMethodConfiguration[];
}

const columns = {
  id: paymentProviders.id,
  name: paymentProviders.name,
  providerName: paymentProviders.providerName,
  description: paymentProviders.description,
  displayPriority: paymentProviders.displayPriority,
  enabled: paymentProviders.enabled,
  isTest: paymentProviders.isTest,
  createdOn: paymentProviders.createdOn,
};

/** One page; the index (tenant, dataset, name, id) serves the default order. */
async function page(executor: Executor, scope: DatasetScope, query: PageQuery<ProviderFields>) {
  const compiled = compilePageQuery(query, { columns, tieBreaker: paymentProviders.id });
  const where = and(inDataset(paymentProviders, scope), compiled.where);
  const rows = await executor
    .select()
    .from(paymentProviders)
    .where(where)
    .orderBy(...compiled.orderBy)
    .limit(compiled.limit)
    .offset(compiled.offset);
  const [total] = await executor.select({ n: count() }).from(paymentProviders).where(where);
  return { rows, totalItems: total?.n ?? 0 };
}

async function find(
  executor: Executor,
  scope: DatasetScope,
  id: string,
): Promise<PaymentProviderRow | null> {
  const [row] = await executor
    .select()
    .from(paymentProviders)
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.id, id)));
  return row ?? null;
}

/** Locks the row for the rest of the transaction (a save reads the stored secrets first). */
async function findForUpdate(
  executor: Executor,
  scope: DatasetScope,
  id: string,
): Promise<PaymentProviderRow | null> {
  const [row] = await executor
    .select()
    .from(paymentProviders)
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.id, id)))
    .for('update');
  return row ?? null;
}

async function nameTaken(
  executor: Executor,
  scope: DatasetScope,
  name: string,
  exceptId: string | null,
): Promise<boolean> {
  const [row] = await executor
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(
      and(
        inDataset(paymentProviders, scope),
        sql`lower(${paymentProviders.name}) = lower(${name})`,
        exceptId ? ne(paymentProviders.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The names of the company's configurations that start with `prefix` (Stripe's unique name). */
async function namesLike(
  executor: Executor,
  scope: DatasetScope,
  prefix: string,
): Promise<string[]> {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await executor
    .select({ name: paymentProviders.name })
    .from(paymentProviders)
    .where(
      and(
        inDataset(paymentProviders, scope),
        sql`lower(${paymentProviders.name}) like lower(${`${escaped}%`})`,
      ),
    );
  return rows.map((row) => row.name);
}

async function insert(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  values: PaymentProviderValues,
): Promise<PaymentProviderRow> {
  const [row] = await executor
    .insert(paymentProviders)
    .values({ ...values, id, tenantId: scope.tenantId, datasetId: scope.datasetId })
    .returning();
  return row!;
}

async function update(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  values: Partial<PaymentProviderValues>,
): Promise<PaymentProviderRow | null> {
  const [row] = await executor
    .update(paymentProviders)
    .set({ ...values, updatedOn: new Date() })
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.id, id)))
    .returning();
  return row ?? null;
}

async function remove(executor: Executor, scope: DatasetScope, id: string): Promise<boolean> {
  const rows = await executor
    .delete(paymentProviders)
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.id, id)))
    .returning({ id: paymentProviders.id });
  return rows.length > 0;
}

async function defaultId(executor: Executor, scope: DatasetScope): Promise<string | null> {
  const [row] = await executor
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.isDefault, true)));
  return row?.id ?? null;
}

/** Makes `id` the company's only default; false when the company has no such configuration. */
async function setDefault(executor: Executor, scope: DatasetScope, id: string): Promise<boolean> {
  const target = await executor
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.id, id)))
    .for('update');
  if (target.length === 0) return false;
  // Cleared first: the partial unique index allows one default per company at any moment.
  await executor
    .update(paymentProviders)
    .set({ isDefault: false })
    .where(
      and(
        inDataset(paymentProviders, scope),
        eq(paymentProviders.isDefault, true),
        ne(paymentProviders.id, id),
      ),
    );
  await executor
    .update(paymentProviders)
    .set({ isDefault: true })
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.id, id)));
  return true;
}

/** The company's Sandbox configuration: its default one first, else the oldest. */
async function sandboxId(executor: Executor, scope: DatasetScope): Promise<string | null> {
  const [row] = await executor
    .select({ id: paymentProviders.id })
    .from(paymentProviders)
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.providerName, 'Sandbox')))
    .orderBy(
      desc(paymentProviders.isDefault),
      asc(paymentProviders.createdOn),
      asc(paymentProviders.id),
    )
    .limit(1);
  return row?.id ?? null;
}

/** Every row of every tenant, for the key rotation (an owner connection). */
async function allSealed(executor: Executor) {
  return executor
    .select({
      tenantId: paymentProviders.tenantId,
      datasetId: paymentProviders.datasetId,
      id: paymentProviders.id,
      credentialsSealed: paymentProviders.credentialsSealed,
    })
    .from(paymentProviders);
}

async function reseal(
  executor: Executor,
  scope: DatasetScope,
  id: string,
  credentialsSealed: string,
): Promise<void> {
  await executor
    .update(paymentProviders)
    .set({ credentialsSealed })
    .where(and(inDataset(paymentProviders, scope), eq(paymentProviders.id, id)));
}

export function createPaymentProvidersRepository() {
  return {
    page,
    find,
    findForUpdate,
    nameTaken,
    namesLike,
    insert,
    update,
    remove,
    defaultId,
    setDefault,
    sandboxId,
    allSealed,
    reseal,
  };
}
export type PaymentProvidersRepository = ReturnType<typeof createPaymentProvidersRepository>;
