import { and, count, eq } from 'drizzle-orm';
import type { Bank, PageQuery, bankQuery } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { banks } from '../../db/schema-receivables.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

type BankRow = typeof banks.$inferSelect;
type BankFields = (typeof bankQuery)['fields'];

/** The columns an ERP connector sets; id, scope and createdOn are the server's. */
export type BankValues = Pick<
  BankRow,
  | 'accountName'
  | 'currency'
  | 'description'
  | 'accountNumber'
  | 'sortCode'
  | 'iban'
  | 'bankName'
  | 'source'
>;

export function toBank(row: BankRow): Bank {
  return {
    id: row.id,
    accountName: row.accountName,
    currency: row.currency,
    description: row.description,
    accountNumber: row.accountNumber,
    sortCode: row.sortCode,
    iban: row.iban,
    bankName: row.bankName,
    source: row.source,
    createdOn: row.createdOn.toISOString(),
  };
}

const columns = {
  id: banks.id,
  accountName: banks.accountName,
  currency: banks.currency,
  description: banks.description,
  accountNumber: banks.accountNumber,
  sortCode: banks.sortCode,
  iban: banks.iban,
  bankName: banks.bankName,
  source: banks.source,
  createdOn: banks.createdOn,
};

const inScope = (scope: DatasetScope) => and(inDataset(banks, scope));

export function createBanksRepository() {
  return {
    /** One page; the index (tenant, dataset, account name, id) serves the default order. */
    async page(executor: Executor, scope: DatasetScope, query: PageQuery<BankFields>) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: banks.id });
      const where = and(inScope(scope), compiled.where);
      const rows = await executor
        .select()
        .from(banks)
        .where(where)
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit)
        .offset(compiled.offset);
      const [total] = await executor.select({ n: count() }).from(banks).where(where);
      return { items: rows.map(toBank), totalItems: total?.n ?? 0 };
    },

    async find(executor: Executor, scope: DatasetScope, id: string): Promise<Bank | null> {
      const [row] = await executor
        .select()
        .from(banks)
        .where(and(inScope(scope), eq(banks.id, id)));
      return row ? toBank(row) : null;
    },

    async insert(
      executor: Executor,
      scope: DatasetScope,
      id: string,
      values: BankValues,
    ): Promise<Bank> {
      const [row] = await executor
        .insert(banks)
        .values({ ...values, id, tenantId: scope.tenantId, datasetId: scope.datasetId })
        .returning();
      return toBank(row!);
    },

    /** Null when the company has no bank with this id. */
    async update(
      executor: Executor,
      scope: DatasetScope,
      id: string,
      values: BankValues,
    ): Promise<Bank | null> {
      const [row] = await executor
        .update(banks)
        .set(values)
        .where(and(inScope(scope), eq(banks.id, id)))
        .returning();
      return row ? toBank(row) : null;
    },
  };
}
export type BanksRepository = ReturnType<typeof createBanksRepository>;
