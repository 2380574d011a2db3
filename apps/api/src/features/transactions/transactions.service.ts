import {
  minorUnitsIssue,
  transactionMessages,
  type CreateSettlementOfferInput,
  type CreateTransactionInput,
  type PageQuery,
  type SettlementOffer,
  type Transaction,
  type TransactionDetail,
  type UpdateSettlementOfferInput,
  type transactionQuery,
} from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { CustomHostIdService } from './custom-host-id.service.js';
import { compareDecimals } from './decimal.js';
import {
  toTransaction,
  type SettlementOfferValues,
  type TransactionValues,
  type TransactionsRepository,
} from './transactions.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

type Fields = (typeof transactionQuery)['fields'];
type TransactionRow = NonNullable<Awaited<ReturnType<TransactionsRepository['findRow']>>>;

const decimal = (value: number | null | undefined) =>
  value === null || value === undefined ? null : String(value);
/** A calendar day as stored (YYYY-MM-DD); absent or empty is none. */
const dayOf = (value: string | null | undefined) => value || null;

function valuesOf(input: CreateTransactionInput, accountId: string): TransactionValues {
  return {
    accountId,
    transactionReference: input.transactionReference,
    transactionSecondReference: input.transactionSecondReference,
    orderReference: input.orderReference,
    transactionType: input.transactionType,
    transactionTypeName: input.transactionTypeName,
    transactionDate: input.transactionDate,
    dueDate: dayOf(input.dueDate),
    currency: input.currency,
    transactionAmount: String(input.transactionAmount),
    discountedAmount: decimal(input.discountedAmount) ?? '0',
    allocatedAmount: decimal(input.allocatedAmount) ?? '0',
    paidStatus: input.paidStatus ?? 'Unpaid',
    description: input.description,
    paymentTermsDescription: input.paymentTermsDescription,
    postingApplication: input.postingApplication,
    customHostId: input.customHostId,
    contact: input.contact ?? null,
  };
}

/**
 * spec 2 §2–§5 accounting transactions: read by the site, pushed by ERP connectors, with their
 * settlement offers. A transaction of another company or tenant is simply not found (design §3).
 */
export function createTransactionsService(deps: {
  repository: TransactionsRepository;
  customHostIds: CustomHostIdService;
}) {
  const { repository, customHostIds } = deps;
  const notFound = () => new NotFoundError('The transaction was not found.');

  async function transactionOf(tx: Tx, scope: DatasetScope, id: string): Promise<TransactionRow> {
    const row = await repository.findRow(tx, scope, id);
    if (!row) throw notFound();
    return row;
  }

  /** spec 2 §5: an amount offer lies between 0 and what is still owed on the transaction. */
  async function checkAmount(
    tx: Tx,
    scope: DatasetScope,
    transaction: TransactionRow,
    input: CreateSettlementOfferInput,
  ) {
    const transactionId = transaction.id;
    if (input.type === 'PercentageDiscount' || input.amount === null || input.amount === undefined)
      return;
    // In the transaction's currency's minor units (JPY 0, KWD 3).
    const units = minorUnitsIssue(input.amount, transaction.currency);
    if (units) throw new ValidationError({ amount: [units] }, units);
    const owed = await repository.amountOwed(tx, scope, transactionId);
    if (compareDecimals(String(input.amount), owed) > 0) {
      throw new ValidationError(
        { amount: [transactionMessages.offerAmountRange] },
        transactionMessages.offerAmountRange,
      );
    }
  }

  function checkDates(validFrom: string | null, validUntil: string | null) {
    // Days, both inclusive (YYYY-MM-DD compares as text): a one-day offer is allowed.
    if (validFrom && validUntil && validFrom > validUntil) {
      throw new ValidationError(
        { validUntil: [transactionMessages.offerDates] },
        transactionMessages.offerDates,
      );
    }
  }

  function offerValues(
    input: CreateSettlementOfferInput,
    transaction: TransactionRow,
    validUntil: string | null,
  ): SettlementOfferValues {
    const percentage = input.type === 'PercentageDiscount';
    return {
      type: input.type,
      description: input.description,
      validFrom: dayOf(input.validFrom),
      validUntil,
      // spec 2 §5: the currency is the transaction's, never the caller's.
      currency: transaction.currency,
      amount: percentage ? null : decimal(input.amount),
      percentageDiscount: percentage ? decimal(input.percentageDiscount) : null,
    };
  }

  async function usableOffer(
    tx: Tx,
    scope: DatasetScope,
    transactionId: string,
    offerId: string,
    usedMessage: string,
  ) {
    const offer = (await repository.offersOf(tx, scope, transactionId)).find(
      (candidate) => candidate.id === offerId,
    );
    if (!offer) throw new NotFoundError(transactionMessages.offerNotFound);
    // spec 2 §4: a Used offer cannot be edited or deleted.
    if (offer.status === 'Used') throw new ConflictError(usedMessage, 'settlementOfferUsed');
    return offer;
  }

  return {
    page: (tx: Tx, scope: DatasetScope, query: PageQuery<Fields, 'account'>) =>
      repository.page(tx, scope, query),

    count: (tx: Tx, scope: DatasetScope, query: Pick<PageQuery<Fields>, 'filters'>) =>
      repository.count(tx, scope, query),

    async get(tx: Tx, scope: DatasetScope, id: string): Promise<TransactionDetail> {
      const detail = await repository.detail(tx, scope, id);
      if (!detail) throw notFound();
      return detail;
    },

    /** Whether POST transactions will update rather than create (for its answer's status). */
    async willMatch(
      tx: Tx,
      scope: DatasetScope,
      input: CreateTransactionInput,
      matchExisting: boolean,
    ) {
      return (
        matchExisting &&
        (await repository.findByReference(
          tx,
          scope,
          input.transactionReference,
          input.transactionType,
        )) !== null
      );
    },

    /**
     * POST transactions: reference and type identify a transaction within the company. With
     * match-existing the existing one is updated in place (its id, offers and documents stay);
     * without it a second one is a 409.
     */
    async push(
      tx: Tx,
      scope: DatasetScope,
      input: CreateTransactionInput,
      matchExisting: boolean,
    ): Promise<Transaction> {
      const account = await repository.accountOf(tx, scope, {
        id: input.accountId,
        reference: input.accountReference,
      });
      if (!account) {
        const field = input.accountId ? 'accountId' : 'accountReference';
        throw new ValidationError(
          { [field]: [transactionMessages.accountNotFound] },
          transactionMessages.accountNotFound,
        );
      }
      const values = valuesOf(input, account.id);
      const existing = await repository.findByReference(
        tx,
        scope,
        input.transactionReference,
        input.transactionType,
      );
      if (existing && !matchExisting)
        throw new ConflictError(transactionMessages.duplicate, 'transactionExists');
      // spec 3 §3: the company's createOption on a new transaction, updateOption on a match.
      const customHostIdOf = await customHostIds.ruleFor(tx, scope);
      values.customHostId = customHostIdOf(existing ? 'update' : 'create', values.customHostId, {
        ...values,
        accountReference: account.accountReference,
      });
      const row = existing
        ? await repository.update(tx, scope, existing.id, values)
        : await repository.insert(tx, scope, uuidv7(), values);
      return toTransaction(row!);
    },

    /** spec 2 §4–§5: a new offer is Open with priority 0, in the transaction's currency. */
    async addOffer(
      tx: Tx,
      scope: DatasetScope,
      transactionId: string,
      input: CreateSettlementOfferInput,
    ): Promise<SettlementOffer> {
      const transaction = await transactionOf(tx, scope, transactionId);
      if (transaction.paidStatus === 'FullyPaid')
        throw new ConflictError(transactionMessages.offerFullyPaid, 'transactionFullyPaid');
      const offers = await repository.offersOf(tx, scope, transactionId);
      if (offers.length > 0 && !offers.some((offer) => offer.type === input.type)) {
        throw new ConflictError(
          transactionMessages.offerTypeNotPresent,
          'settlementOfferTypeNotPresent',
        );
      }
      await checkAmount(tx, scope, transaction, input);
      // spec 2 §5: valid-until defaults on add to the transaction's due date.
      const validUntil =
        input.validUntil === undefined || input.validUntil === null
          ? transaction.dueDate
          : input.validUntil;
      checkDates(dayOf(input.validFrom), validUntil);
      return repository.insertOffer(
        tx,
        scope,
        transactionId,
        uuidv7(),
        offerValues(input, transaction, validUntil),
      );
    },

    async updateOffer(
      tx: Tx,
      scope: DatasetScope,
      transactionId: string,
      input: UpdateSettlementOfferInput,
    ): Promise<SettlementOffer> {
      const transaction = await transactionOf(tx, scope, transactionId);
      await usableOffer(tx, scope, transactionId, input.id, transactionMessages.offerUsedEdit);
      await checkAmount(tx, scope, transaction, input);
      const validUntil = dayOf(input.validUntil);
      checkDates(dayOf(input.validFrom), validUntil);
      const offer = await repository.updateOffer(
        tx,
        scope,
        transactionId,
        input.id,
        offerValues(input, transaction, validUntil),
      );
      if (!offer) throw new NotFoundError(transactionMessages.offerNotFound);
      return offer;
    },

    async deleteOffer(
      tx: Tx,
      scope: DatasetScope,
      transactionId: string,
      offerId: string,
    ): Promise<void> {
      await transactionOf(tx, scope, transactionId);
      await usableOffer(tx, scope, transactionId, offerId, transactionMessages.offerUsedDelete);
      await repository.deleteOffer(tx, scope, transactionId, offerId);
    },
  };
}
export type TransactionsService = ReturnType<typeof createTransactionsService>;
