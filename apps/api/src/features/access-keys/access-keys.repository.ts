import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { AccessKey, QuerySearch } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { accessKeys } from '../../db/schema.js';
import { compileSearch } from '../../platform/paging/compile-filter.js';
import { inTenant } from '../../platform/scope.js';

export type KeyKind = 'access' | 'subscription';
type KeyRow = typeof accessKeys.$inferSelect;

export function toAccessKey(row: KeyRow): AccessKey {
  return {
    id: row.id,
    name: row.name,
    validUntil: row.validUntil ? row.validUntil.toISOString() : null,
    prefix: row.prefix,
    createdOn: row.createdOn.toISOString(),
    datasetId: row.datasetId,
  };
}

const live = (tenantId: string, kind: KeyKind) =>
  and(inTenant(accessKeys, { tenantId }), eq(accessKeys.kind, kind), isNull(accessKeys.deletedAt));

export function createAccessKeysRepository() {
  return {
    /** The live keys, or with `search` those the keys grid's search box finds. */
    async list(executor: Executor, tenantId: string, kind: KeyKind, search?: QuerySearch) {
      const rows = await executor
        .select()
        .from(accessKeys)
        .where(
          and(
            live(tenantId, kind),
            compileSearch(search, { name: accessKeys.name, prefix: accessKeys.prefix }),
          ),
        )
        .orderBy(asc(accessKeys.createdOn), asc(accessKeys.id));
      return rows.map(toAccessKey);
    },
    async find(executor: Executor, tenantId: string, kind: KeyKind, id: string) {
      const [row] = await executor
        .select()
        .from(accessKeys)
        .where(and(live(tenantId, kind), eq(accessKeys.id, id)));
      return row ? toAccessKey(row) : null;
    },
    async count(executor: Executor, tenantId: string, kind: KeyKind) {
      const [row] = await executor
        .select({ n: count() })
        .from(accessKeys)
        .where(live(tenantId, kind));
      return row?.n ?? 0;
    },
    async insert(executor: Executor, row: typeof accessKeys.$inferInsert) {
      const [inserted] = await executor.insert(accessKeys).values(row).returning();
      return toAccessKey(inserted!);
    },
    async update(
      executor: Executor,
      tenantId: string,
      kind: KeyKind,
      id: string,
      changes: { name: string; validUntil: Date | null },
    ) {
      const [row] = await executor
        .update(accessKeys)
        .set(changes)
        .where(and(live(tenantId, kind), eq(accessKeys.id, id)))
        .returning();
      return row ? toAccessKey(row) : null;
    },
    /** Soft delete: the key stops working at once and its hash can never match again. */
    async remove(executor: Executor, tenantId: string, kind: KeyKind, id: string) {
      const rows = await executor
        .update(accessKeys)
        .set({ deletedAt: new Date() })
        .where(and(live(tenantId, kind), eq(accessKeys.id, id)))
        .returning({ id: accessKeys.id });
      return rows.length > 0;
    },
  };
}
export type AccessKeysRepository = ReturnType<typeof createAccessKeysRepository>;
