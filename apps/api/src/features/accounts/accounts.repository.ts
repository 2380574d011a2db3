import { and, eq, ne } from 'drizzle-orm';
import type {
  Account,
  AccountAddress,
  AccountContact,
  AccountCounts,
  AccountEmailAddress,
  AccountSettings,
  PageQuery,
  accountQuery,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import {
  latePaymentConfigurations,
  settlementConfigurationGroups,
} from '../../db/schema-money-rules.js';
import {
  accounts,
  payers,
  paymentRequests,
  paymentTransactions,
  transactions,
} from '../../db/schema-receivables.js';
import { createStatementCache, readPage } from '../../platform/paging/statement-cache.js';
import { countRowsTogether } from '../../platform/paging/count.js';
import { reminders } from '../../db/schema-reminders.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

type AccountRow = typeof accounts.$inferSelect;
type AccountFields = (typeof accountQuery)['fields'];

/** The columns an ERP connector sets; the settings are the merchant's own. */
export interface AccountValues {
  accountReference: string;
  name: string;
  shortName: string | null;
  accountType: string;
  currency: string | null;
  balance: number;
  overdueAmount: number;
  disputedAmount: number;
  creditLimit: number | null;
  emailAddresses: AccountEmailAddress[];
  contacts: AccountContact[];
  addresses: AccountAddress[];
}

const money = (value: number) => String(value);

export function toAccount(row: AccountRow, counts?: AccountCounts): Account {
  return {
    id: row.id,
    accountReference: row.accountReference,
    name: row.name,
    shortName: row.shortName,
    accountType: row.accountType,
    currency: row.currency,
    balance: Number(row.balance),
    overdueAmount: Number(row.overdueAmount),
    disputedAmount: Number(row.disputedAmount),
    creditLimit: row.creditLimit === null ? null : Number(row.creditLimit),
    emailAddresses: normaliseList(row.emailAddresses, (item) => ({
      emailAddress: String(item.emailAddress ?? ''),
      type: textOrNull(item.type),
      isDefault: item.isDefault === true,
    })),
    contacts: normaliseList(row.contacts, (item) => ({
      firstNames: textOrNull(item.firstNames),
      surname: textOrNull(item.surname),
      jobTitle: textOrNull(item.jobTitle),
    })),
    addresses: normaliseList(row.addresses, (item) => ({
      type: textOrNull(item.type),
      address1: textOrNull(item.address1),
      address2: textOrNull(item.address2),
      address3: textOrNull(item.address3),
      address4: textOrNull(item.address4),
      city: textOrNull(item.city),
      state: textOrNull(item.state),
      postCode: textOrNull(item.postCode),
      country: textOrNull(item.country),
    })),
    accountSettings: {
      disableAutoApplySettlements: row.disableAutoApplySettlements,
      settlementConfigurationGroupId: row.settlementConfigurationGroupId,
      disableLatePayments: row.disableLatePayments,
      latePaymentConfigurationGroupId: row.latePaymentConfigurationGroupId,
      editPaymentStatus: row.editPaymentStatus as AccountSettings['editPaymentStatus'],
      editPaymentOverrideStatus:
        row.editPaymentOverrideStatus as AccountSettings['editPaymentOverrideStatus'],
      defaultUsageType: row.defaultUsageType as AccountSettings['defaultUsageType'],
    },
    createdOn: row.createdOn.toISOString(),
    updatedOn: row.updatedOn.toISOString(),
    ...(counts ? { counts } : {}),
  };
}

// The jsonb columns are written by this area and by the demo data; read them defensively so a
// missing key answers null rather than breaking the response schema.
function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
function normaliseList<T>(value: unknown, map: (item: Record<string, unknown>) => T): T[] {
  return Array.isArray(value)
    ? value.filter((item) => item && typeof item === 'object').map((item) => map(item))
    : [];
}

const columns = {
  id: accounts.id,
  accountReference: accounts.accountReference,
  name: accounts.name,
  shortName: accounts.shortName,
  accountType: accounts.accountType,
  currency: accounts.currency,
  balance: accounts.balance,
  overdueAmount: accounts.overdueAmount,
  disputedAmount: accounts.disputedAmount,
  creditLimit: accounts.creditLimit,
  createdOn: accounts.createdOn,
  updatedOn: accounts.updatedOn,
};

const inScope = (scope: DatasetScope) => and(inDataset(accounts, scope));

const columnValues = (values: AccountValues) => ({
  ...values,
  balance: money(values.balance),
  overdueAmount: money(values.overdueAmount),
  disputedAmount: money(values.disputedAmount),
  creditLimit: values.creditLimit === null ? null : money(values.creditLimit),
});

export function createAccountsRepository() {
  const statements = createStatementCache();
  return {
    /** One page and its total, exact up to 10,000 and estimated past it. */
    async page(executor: Executor, scope: DatasetScope, query: PageQuery<AccountFields>) {
      const { rows, total } = await readPage<AccountRow, AccountFields>(executor, statements, {
        table: accounts,
        scope,
        query,
        columns,
        tieBreaker: accounts.id,
      });
      return {
        items: rows.map((row) => toAccount(row)),
        totalItems: total.count,
        totalItemsEstimated: total.estimated,
      };
    },

    async find(executor: Executor, scope: DatasetScope, id: string): Promise<AccountRow | null> {
      const [row] = await executor
        .select()
        .from(accounts)
        .where(and(inScope(scope), eq(accounts.id, id)));
      return row ?? null;
    },

    async findByReference(
      executor: Executor,
      scope: DatasetScope,
      accountReference: string,
      exceptId?: string,
    ): Promise<AccountRow | null> {
      const [row] = await executor
        .select()
        .from(accounts)
        .where(
          and(
            inScope(scope),
            eq(accounts.accountReference, accountReference),
            exceptId ? ne(accounts.id, exceptId) : undefined,
          ),
        );
      return row ?? null;
    },

    /** The count badges of the account page (spec 2 §2), each capped like the lists, in one query. */
    async counts(executor: Executor, scope: DatasetScope, id: string): Promise<AccountCounts> {
      const ofAccount = (
        table:
          | typeof transactions
          | typeof paymentTransactions
          | typeof paymentRequests
          | typeof payers
          | typeof reminders,
      ) => ({
        table,
        where: and(inDataset(table, scope), eq(table.accountId, id)),
      });
      const [
        transactionCount,
        paymentTransactionCount,
        paymentRequestCount,
        payerCount,
        reminderCount,
      ] = await countRowsTogether(executor, [
        ofAccount(transactions),
        ofAccount(paymentTransactions),
        ofAccount(paymentRequests),
        ofAccount(payers),
        ofAccount(reminders),
      ]);
      return {
        transactions: transactionCount!,
        paymentTransactions: paymentTransactionCount!,
        paymentRequests: paymentRequestCount!,
        payers: payerCount!,
        reminders: reminderCount!,
      };
    },

    async insert(executor: Executor, scope: DatasetScope, id: string, values: AccountValues) {
      const [row] = await executor
        .insert(accounts)
        .values({
          ...columnValues(values),
          id,
          tenantId: scope.tenantId,
          datasetId: scope.datasetId,
        })
        .returning();
      return row!;
    },

    /** Null when the company has no account with this id. */
    async update(executor: Executor, scope: DatasetScope, id: string, values: AccountValues) {
      const [row] = await executor
        .update(accounts)
        .set({ ...columnValues(values), updatedOn: new Date() })
        .where(and(inScope(scope), eq(accounts.id, id)))
        .returning();
      return row ?? null;
    },

    async updateSettings(
      executor: Executor,
      scope: DatasetScope,
      id: string,
      settings: AccountSettings,
    ) {
      const [row] = await executor
        .update(accounts)
        .set({ ...settings, updatedOn: new Date() })
        .where(and(inScope(scope), eq(accounts.id, id)))
        .returning();
      return row ?? null;
    },

    /**
     * Whether the settlement configuration group and the late payment configuration an account's
     * settings choose exist in the company (null: nothing chosen, which always passes).
     */
    async configurationsExist(
      executor: Executor,
      scope: DatasetScope,
      chosen: { settlementGroupId: string | null; latePaymentId: string | null },
    ): Promise<{ settlementGroup: boolean; latePayment: boolean }> {
      const one = async (
        table: typeof settlementConfigurationGroups | typeof latePaymentConfigurations,
        id: string | null,
      ) => {
        if (id === null) return true;
        const rows = await executor
          .select({ id: table.id })
          .from(table)
          .where(and(inDataset(table, scope), eq(table.id, id)))
          .limit(1);
        return rows.length > 0;
      };
      return {
        settlementGroup: await one(settlementConfigurationGroups, chosen.settlementGroupId),
        latePayment: await one(latePaymentConfigurations, chosen.latePaymentId),
      };
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
