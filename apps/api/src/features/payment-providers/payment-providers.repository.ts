import { and, count, eq, ne, sql } from 'drizzle-orm';
import type {
  PageQuery,
  PaymentMethodConfiguration,
  PaymentProviderName,
  paymentProviderQuery,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';

export type PaymentProviderRow = typeof paymentProviders.$inferSelect;
type ProviderFields = (typeof paymentProviderQuery)['fields'];

/** The company whose provider configurations a call sees (style.md §4). */
export interface ProviderScope {
  tenantId: string;
  datasetId: number;
}

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

const inScope = (scope: ProviderScope) =>
  and(
    eq(paymentProviders.tenantId, scope.tenantId),
    eq(paymentProviders.datasetId, scope.datasetId),
  );

export function createPaymentProvidersRepository() {
  return {
    /** One page; the index (tenant, dataset, name, id) serves the default order. */
    async page(executor: Executor, scope: ProviderScope, query: PageQuery<ProviderFields>) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: paymentProviders.id });
      const where = and(inScope(scope), compiled.where);
      const rows = await executor
        .select()
        .from(paymentProviders)
        .where(where)
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit)
        .offset(compiled.offset);
      const [total] = await executor.select({ n: count() }).from(paymentProviders).where(where);
      return { rows, totalItems: total?.n ?? 0 };
    },

    async find(
      executor: Executor,
      scope: ProviderScope,
      id: string,
    ): Promise<PaymentProviderRow | null> {
      const [row] = await executor
        .select()
        .from(paymentProviders)
        .where(and(inScope(scope), eq(paymentProviders.id, id)));
      return row ?? null;
    },

    /** Locks the row for the rest of the transaction (a save reads the stored secrets first). */
    async findForUpdate(
      executor: Executor,
      scope: ProviderScope,
      id: string,
    ): Promise<PaymentProviderRow | null> {
      const [row] = await executor
        .select()
        .from(paymentProviders)
        .where(and(inScope(scope), eq(paymentProviders.id, id)))
        .for('update');
      return row ?? null;
    },

    async nameTaken(
      executor: Executor,
      scope: ProviderScope,
      name: string,
      exceptId: string | null,
    ): Promise<boolean> {
      const [row] = await executor
        .select({ id: paymentProviders.id })
        .from(paymentProviders)
        .where(
          and(
            inScope(scope),
            sql`lower(${paymentProviders.name}) = lower(${name})`,
            exceptId ? ne(paymentProviders.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** The names of the company's configurations that start with `prefix` (Stripe's unique name). */
    async namesLike(executor: Executor, scope: ProviderScope, prefix: string): Promise<string[]> {
      const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
      const rows = await executor
        .select({ name: paymentProviders.name })
        .from(paymentProviders)
        .where(
          and(inScope(scope), sql`lower(${paymentProviders.name}) like lower(${`${escaped}%`})`),
        );
      return rows.map((row) => row.name);
    },

    async insert(
      executor: Executor,
      scope: ProviderScope,
      id: string,
      values: PaymentProviderValues,
    ): Promise<PaymentProviderRow> {
      const [row] = await executor
        .insert(paymentProviders)
        .values({ ...values, id, tenantId: scope.tenantId, datasetId: scope.datasetId })
        .returning();
      return row!;
    },

    async update(
      executor: Executor,
      scope: ProviderScope,
      id: string,
      values: Partial<PaymentProviderValues>,
    ): Promise<PaymentProviderRow | null> {
      const [row] = await executor
        .update(paymentProviders)
        .set({ ...values, updatedOn: new Date() })
        .where(and(inScope(scope), eq(paymentProviders.id, id)))
        .returning();
      return row ?? null;
    },

    async remove(executor: Executor, scope: ProviderScope, id: string): Promise<boolean> {
      const rows = await executor
        .delete(paymentProviders)
        .where(and(inScope(scope), eq(paymentProviders.id, id)))
        .returning({ id: paymentProviders.id });
      return rows.length > 0;
    },

    async defaultId(executor: Executor, scope: ProviderScope): Promise<string | null> {
      const [row] = await executor
        .select({ id: paymentProviders.id })
        .from(paymentProviders)
        .where(and(inScope(scope), eq(paymentProviders.isDefault, true)));
      return row?.id ?? null;
    },

    /** Makes `id` the company's only default; false when the company has no such configuration. */
    async setDefault(executor: Executor, scope: ProviderScope, id: string): Promise<boolean> {
      const target = await executor
        .select({ id: paymentProviders.id })
        .from(paymentProviders)
        .where(and(inScope(scope), eq(paymentProviders.id, id)))
        .for('update');
      if (target.length === 0) return false;
      // Cleared first: the partial unique index allows one default per company at any moment.
      await executor
        .update(paymentProviders)
        .set({ isDefault: false })
        .where(
          and(inScope(scope), eq(paymentProviders.isDefault, true), ne(paymentProviders.id, id)),
        );
      await executor
        .update(paymentProviders)
        .set({ isDefault: true })
        .where(and(inScope(scope), eq(paymentProviders.id, id)));
      return true;
    },

    /** Every row of every tenant, for the key rotation (an owner connection). */
    async allSealed(executor: Executor) {
      return executor
        .select({
          tenantId: paymentProviders.tenantId,
          datasetId: paymentProviders.datasetId,
          id: paymentProviders.id,
          credentialsSealed: paymentProviders.credentialsSealed,
        })
        .from(paymentProviders);
    },

    async reseal(
      executor: Executor,
      scope: ProviderScope,
      id: string,
      credentialsSealed: string,
    ): Promise<void> {
      await executor
        .update(paymentProviders)
        .set({ credentialsSealed })
        .where(and(inScope(scope), eq(paymentProviders.id, id)));
    },
  };
}
export type PaymentProvidersRepository = ReturnType<typeof createPaymentProvidersRepository>;
