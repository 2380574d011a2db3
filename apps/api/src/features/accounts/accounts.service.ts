import type {
  Account,
  AccountSettings,
  AccountSettingsBody,
  CreateAccountInput,
  CreatePayerInput,
  PageQuery,
  Payer,
  UpsertAccountInput,
  accountQuery,
  payerQuery,
} from '@ledgerline/contract';
import { accountMessages } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../platform/errors.js';
import { toAccount, type AccountValues, type AccountsRepository } from './accounts.repository.js';
import type { PayersRepository } from './payers.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

type AccountFields = (typeof accountQuery)['fields'];
type PayerFields = (typeof payerQuery)['fields'];

export const accountNotFound = (id: string) => new NotFoundError(`Account ${id} was not found.`);
const payerNotFound = (id: string) => new NotFoundError(`Payer ${id} was not found.`);
const referenceTaken = (reference: string) =>
  new ConflictError(accountMessages.accountReferenceTaken(reference), 'AccountReferenceTaken');

/** Two connectors creating one reference at once: the loser of the race gets the 409 too. */
async function guardReference<T>(reference: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; constraint?: string } }).cause ?? error;
    const pgError = cause as { code?: string; constraint?: string };
    if (pgError.code === '23505' && pgError.constraint === 'accounts_reference_key')
      throw referenceTaken(reference);
    throw error;
  }
}

function valuesOf(accountReference: string, input: UpsertAccountInput): AccountValues {
  return {
    accountReference,
    name: input.name,
    shortName: input.shortName,
    accountType: input.accountType,
    currency: input.currency,
    balance: input.balance,
    overdueAmount: input.overdueAmount,
    disputedAmount: input.disputedAmount,
    creditLimit: input.creditLimit,
    emailAddresses: input.emailAddresses,
    contacts: input.contacts,
    addresses: input.addresses,
  };
}

/**
 * spec 2 §2, §3, §7 accounts and their payers: read by the site, settings changed by merchants
 * (EditAccountSettings), the rest written by ERP connectors (PushErpData). A record of another
 * company or tenant is simply not found (design §3).
 */
export function createAccountsService(deps: {
  accounts: AccountsRepository;
  payers: PayersRepository;
}) {
  const { accounts, payers } = deps;

  async function requireAccount(tx: Tx, scope: DatasetScope, id: string) {
    const row = await accounts.find(tx, scope, id);
    if (!row) throw accountNotFound(id);
    return row;
  }

  return {
    page: (tx: Tx, scope: DatasetScope, query: PageQuery<AccountFields>) =>
      accounts.page(tx, scope, query),

    async get(
      tx: Tx,
      scope: DatasetScope,
      id: string,
      expand: readonly 'counts'[],
    ): Promise<Account> {
      if (!expand.includes('counts')) return toAccount(await requireAccount(tx, scope, id));
      // The account and its counts are asked together: on PostgreSQL both statements leave in one
      // write and come back in one read (decision 165), instead of two round trips one after the
      // other. Both are awaited before anything is thrown, so no statement outlives the call; the
      // account's own answer (404 first) decides before the counts'.
      const [row, counts] = await Promise.allSettled([
        requireAccount(tx, scope, id),
        accounts.counts(tx, scope, id),
      ]);
      if (row.status === 'rejected') throw row.reason;
      if (counts.status === 'rejected') throw counts.reason;
      return toAccount(row.value, counts.value);
    },

    async create(tx: Tx, scope: DatasetScope, input: CreateAccountInput): Promise<Account> {
      if (await accounts.findByReference(tx, scope, input.accountReference)) {
        throw referenceTaken(input.accountReference);
      }
      const row = await guardReference(input.accountReference, () =>
        accounts.insert(tx, scope, uuidv7(), valuesOf(input.accountReference, input)),
      );
      return toAccount(row);
    },

    /** PUT replaces every field the connector owns; id, settings and createdOn stay. */
    async update(
      tx: Tx,
      scope: DatasetScope,
      id: string,
      input: CreateAccountInput,
    ): Promise<Account> {
      await requireAccount(tx, scope, id);
      if (await accounts.findByReference(tx, scope, input.accountReference, id)) {
        throw referenceTaken(input.accountReference);
      }
      const row = await guardReference(input.accountReference, () =>
        accounts.update(tx, scope, id, valuesOf(input.accountReference, input)),
      );
      return toAccount(row!);
    },

    exists: async (tx: Tx, scope: DatasetScope, accountReference: string) =>
      (await accounts.findByReference(tx, scope, accountReference)) !== null,

    /** The connector's sync: the account with this reference is replaced, or created. */
    async upsert(
      tx: Tx,
      scope: DatasetScope,
      accountReference: string,
      input: UpsertAccountInput,
    ): Promise<{ account: Account; created: boolean }> {
      const existing = await accounts.findByReference(tx, scope, accountReference);
      const values = valuesOf(accountReference, input);
      if (existing) {
        return {
          account: toAccount((await accounts.update(tx, scope, existing.id, values))!),
          created: false,
        };
      }
      const row = await guardReference(accountReference, () =>
        accounts.insert(tx, scope, uuidv7(), values),
      );
      return { account: toAccount(row), created: true };
    },

    async updateSettings(
      tx: Tx,
      scope: DatasetScope,
      id: string,
      body: AccountSettingsBody,
    ): Promise<Account> {
      // An unknown account is a 404 before anything about its settings.
      const current = await accounts.find(tx, scope, id);
      if (!current) throw accountNotFound(id);
      const settings: AccountSettings = {
        disableAutoApplySettlements: body.disableAutoApplySettlements,
        settlementConfigurationGroupId: body.settlementConfigurationGroupId ?? null,
        disableLatePayments: body.disableLatePayments,
        latePaymentConfigurationGroupId: body.latePaymentConfigurationGroupId ?? null,
        editPaymentStatus: body.editPaymentStatus,
        editPaymentOverrideStatus: body.editPaymentOverrideStatus,
        // Absent keeps what was saved: a client that predates the field does not clear it.
        defaultUsageType:
          body.defaultUsageType === undefined
            ? (current.defaultUsageType as AccountSettings['defaultUsageType'])
            : body.defaultUsageType,
      };
      const found = await accounts.configurationsExist(tx, scope, {
        settlementGroupId: settings.settlementConfigurationGroupId,
        latePaymentId: settings.latePaymentConfigurationGroupId,
      });
      const errors: Record<string, string[]> = {};
      if (!found.settlementGroup)
        errors.settlementConfigurationGroupId = [accountMessages.settlementGroupUnknown];
      if (!found.latePayment)
        errors.latePaymentConfigurationGroupId = [accountMessages.latePaymentConfigurationUnknown];
      if (Object.keys(errors).length > 0)
        throw new UnprocessableError(accountMessages.configurationUnknown, errors);
      const row = await accounts.updateSettings(tx, scope, id, settings);
      if (!row) throw accountNotFound(id);
      return toAccount(row);
    },

    async payersPage(
      tx: Tx,
      scope: DatasetScope,
      accountId: string,
      query: PageQuery<PayerFields>,
    ) {
      await requireAccount(tx, scope, accountId);
      return payers.page(tx, scope, accountId, query);
    },

    /** spec 1 §2.1 /payers: the payers of every account of the company. */
    companyPayersPage(tx: Tx, scope: DatasetScope, query: PageQuery<PayerFields>) {
      return payers.page(tx, scope, null, query);
    },

    async payersCount(tx: Tx, scope: DatasetScope, accountId: string) {
      await requireAccount(tx, scope, accountId);
      return payers.count(tx, scope, accountId);
    },

    async payer(tx: Tx, scope: DatasetScope, accountId: string, id: string): Promise<Payer> {
      const payer = await payers.find(tx, scope, accountId, id);
      if (!payer) throw payerNotFound(id);
      return payer;
    },

    async createPayer(
      tx: Tx,
      scope: DatasetScope,
      accountId: string,
      input: CreatePayerInput,
    ): Promise<Payer> {
      await requireAccount(tx, scope, accountId);
      return payers.insert(tx, scope, accountId, uuidv7(), input);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
