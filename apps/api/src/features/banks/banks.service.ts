import type {
  Bank,
  CreateBankInput,
  PageQuery,
  UpdateBankInput,
  bankQuery,
} from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { NotFoundError } from '../../platform/errors.js';
import type { BankValues, BanksRepository } from './banks.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

type BankFields = (typeof bankQuery)['fields'];

function valuesOf(input: CreateBankInput): BankValues {
  return {
    accountName: input.accountName,
    currency: input.currency,
    description: input.description,
    accountNumber: input.accountNumber,
    sortCode: input.sortCode,
    iban: input.iban,
    bankName: input.bankName,
    source: input.source,
  };
}

/**
 * spec 2 §2, §7 banks: read by the site, written by ERP connectors. A bank of another company or
 * tenant is simply not found (design §3).
 */
export function createBanksService(deps: { repository: BanksRepository }) {
  const { repository } = deps;
  const notFound = (id: string) => new NotFoundError(`Bank ${id} was not found.`);

  return {
    page: (tx: Tx, scope: DatasetScope, query: PageQuery<BankFields>) =>
      repository.page(tx, scope, query),

    async get(tx: Tx, scope: DatasetScope, id: string): Promise<Bank> {
      const bank = await repository.find(tx, scope, id);
      if (!bank) throw notFound(id);
      return bank;
    },

    create: (tx: Tx, scope: DatasetScope, input: CreateBankInput): Promise<Bank> =>
      repository.insert(tx, scope, uuidv7(), valuesOf(input)),

    /** PUT replaces every field the connector owns; id and createdOn stay. */
    async update(tx: Tx, scope: DatasetScope, input: UpdateBankInput): Promise<Bank> {
      const bank = await repository.update(tx, scope, input.id, valuesOf(input));
      if (!bank) throw notFound(input.id);
      return bank;
    },
  };
}
export type BanksService = ReturnType<typeof createBanksService>;
