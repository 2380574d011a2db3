import { and, eq } from 'drizzle-orm';
import type { CreatePayerInput, PageQuery, Payer, payerQuery } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { payers } from '../../db/schema-receivables.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { countRows } from '../../platform/paging/count.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

type PayerRow = typeof payers.$inferSelect;
type PayerFields = (typeof payerQuery)['fields'];

export function toPayer(row: PayerRow): Payer {
  return {
    id: row.id,
    accountId: row.accountId,
    createdOn: row.createdOn.toISOString(),
    details: {
      companyName: row.companyName,
      firstNames: row.firstNames,
      surname: row.surname,
      emailAddress: row.emailAddress,
      address1: row.address1,
      address2: row.address2,
      address3: row.address3,
      address4: row.address4,
      city: row.city,
      state: row.state,
      postCode: row.postCode,
      country: row.country,
    },
  };
}

const columns = {
  id: payers.id,
  createdOn: payers.createdOn,
  companyName: payers.companyName,
  firstNames: payers.firstNames,
  surname: payers.surname,
  emailAddress: payers.emailAddress,
  postCode: payers.postCode,
  city: payers.city,
  country: payers.country,
};

/** The payers of one account of the company; the index (tenant, dataset, account, createdOn, id) serves it. */
const ofAccount = (scope: DatasetScope, accountId: string) =>
  and(inDataset(payers, scope), eq(payers.accountId, accountId));

/** Every payer of the company (the /payers list). */
const ofCompany = (scope: DatasetScope) => and(inDataset(payers, scope));

export function createPayersRepository() {
  return {
    /** The payers of one account, or of the whole company when accountId is null. */
    async page(
      executor: Executor,
      scope: DatasetScope,
      accountId: string | null,
      query: PageQuery<PayerFields>,
    ) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: payers.id });
      const owner = accountId === null ? ofCompany(scope) : ofAccount(scope, accountId);
      const where = and(owner, compiled.where);
      const rows = await executor
        .select()
        .from(payers)
        .where(where)
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit)
        .offset(compiled.offset);
      const total = await countRows(executor, payers, where);
      return {
        items: rows.map(toPayer),
        totalItems: total.count,
        totalItemsEstimated: total.estimated,
      };
    },

    count: (executor: Executor, scope: DatasetScope, accountId: string) =>
      countRows(executor, payers, ofAccount(scope, accountId)),

    async find(executor: Executor, scope: DatasetScope, accountId: string, id: string) {
      const [row] = await executor
        .select()
        .from(payers)
        .where(and(ofAccount(scope, accountId), eq(payers.id, id)));
      return row ? toPayer(row) : null;
    },

    async insert(
      executor: Executor,
      scope: DatasetScope,
      accountId: string,
      id: string,
      values: CreatePayerInput,
    ) {
      const [row] = await executor
        .insert(payers)
        .values({ ...values, id, accountId, tenantId: scope.tenantId, datasetId: scope.datasetId })
        .returning();
      return toPayer(row!);
    },
  };
}
export type PayersRepository = ReturnType<typeof createPayersRepository>;
