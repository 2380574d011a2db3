import Big from 'big.js';
import {
  addExpiry,
  allocationAmountIssue,
  minorUnitsIssue,
  newRequestDefaults,
  payableTransactionTypes,
  paymentRequestMessages as m,
  type AllocationInfoInput,
  type CreateInvoicesRequestInput,
  type CreatePaymentRequestInput,
  type PageQuery,
  type PaymentRequest,
  type UpdatePaymentRequestInput,
  type UsageType,
  type paymentRequestQuery,
} from '@ledgerline/contract';
import { randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../platform/errors.js';
import { readPaymentRequestSettings } from '../company-settings/index.js';
import {
  toAllocation,
  toPaymentRequest,
  type PaymentRequestRow,
  type PaymentRequestScope,
  type PaymentRequestValues,
  type PaymentRequestsRepository,
} from './payment-requests.repository.js';

type Fields = (typeof paymentRequestQuery)['fields'];
type Account = NonNullable<Awaited<ReturnType<PaymentRequestsRepository['findAccount']>>>;
type Loaded = { allocations?: boolean; transactions?: boolean; payments?: boolean; editState?: boolean; mails?: boolean };

/** spec 2 §9: a random invoice reference starts with INV. */
function invoiceReference(): string {
  return `${newRequestDefaults.invoiceReferencePrefix}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

const payable: ReadonlySet<string> = new Set(payableTransactionTypes);
const minorUnitFields = [
  ['amount', 'Amount'],
  ['minimumAmount', 'Minimum Amount'],
  ['maximumAmount', 'Maximum Amount'],
] as const;

interface AccountContact {
  firstNames?: string;
  surname?: string;
}
interface AccountEmail {
  emailAddress?: string;
  isDefault?: boolean;
}

/**
 * spec 2 §2–§5 payment requests. `publicUrl` makes each request's payment URL, the payer page's
 * address (features/pay).
 */
export function createPaymentRequestsService(deps: {
  repository: PaymentRequestsRepository;
  publicUrl: string;
  /** PAY_ATTEMPT_HOLD_MINUTES: how long a started payment holds its request (default 10). */
  holdMinutes?: number;
}) {
  const { repository, publicUrl } = deps;
  const holdMinutes = deps.holdMinutes ?? 10;
  const requestUrl = (id: string) => `${publicUrl}/pay/${id}`;
  const notFound = () => new NotFoundError(m.notFound);

  /** The request as answered, with what the caller asked to load. */
  async function present(tx: Tx, scope: PaymentRequestScope, rows: PaymentRequestRow[], load: Loaded): Promise<PaymentRequest[]> {
    const accountIds = [...new Set(rows.flatMap((row) => (row.accountId ? [row.accountId] : [])))];
    const accounts = await repository.accountsById(tx, scope, accountIds);
    const allocations = load.allocations || load.transactions ? await repository.allocationsOf(tx, scope, rows.map((row) => row.id)) : [];
    const transactions = load.transactions ? await repository.transactionsById(tx, scope, [...new Set(allocations.map((x) => x.transactionId))]) : null;
    // Every request's payments and mails in one read each (a batch of settled payments' web hook
    // payloads: issue 19), not one per request.
    const ids = rows.map((row) => row.id);
    const payments = load.payments ? await repository.paymentsOfMany(tx, scope, ids) : null;
    const mails = load.mails ? await repository.mailsOfMany(tx, scope, ids) : null;
    return Promise.all(
      rows.map(async (row) => {
        const own = allocations.filter((x) => x.paymentRequestId === row.id);
        const extra: Parameters<typeof toPaymentRequest>[3] = {};
        if (load.allocations || load.transactions) extra.transactionAllocations = own.map(toAllocation);
        if (transactions) extra.transactions = own.flatMap((x) => transactions.get(x.transactionId) ?? []);
        if (payments) extra.paymentTransactions = payments.get(row.id) ?? [];
        if (mails) extra.mails = mails.get(row.id) ?? [];
        if (load.editState) {
          const state = await editState(tx, scope, row);
          extra.canEdit = state.canEdit;
          extra.canChangeUsage = state.canChangeUsage;
        }
        return toPaymentRequest(row, requestUrl(row.id), row.accountId ? (accounts.get(row.accountId) ?? null) : null, extra);
      }),
    );
  }

  /** spec 2 §4: only Open requests without applied discounts or late payments are editable. */
  async function editState(tx: Tx, scope: PaymentRequestScope, row: PaymentRequestRow) {
    const open = row.requestStatus === 'Open';
    const applied = open ? await repository.hasDiscountsOrLatePayments(tx, scope, row.id) : false;
    const canEdit = open && !applied;
    const canChangeUsage =
      canEdit && row.requestType === 'Transaction' && row.captureType === 'Immediate' && !(await repository.hasPayments(tx, scope, row.id));
    return { canEdit, canChangeUsage, applied };
  }

  async function assertEditable(tx: Tx, scope: PaymentRequestScope, row: PaymentRequestRow) {
    if (row.requestStatus !== 'Open') throw new ConflictError(m.notOpen, 'paymentRequestNotOpen');
    const state = await editState(tx, scope, row);
    if (state.applied) throw new ConflictError(m.discountsApplied, 'paymentRequestDiscountsApplied');
    return state;
  }

  /**
   * What a Transaction request asks: the sum of its allocations' amounts, an allocation without
   * one counting what its transaction still owes (as createForInvoices sums them).
   */
  async function askedTotal(tx: Tx, scope: PaymentRequestScope, id: string): Promise<Big> {
    const allocations = await repository.allocationsOf(tx, scope, [id]);
    const owed = await repository.outstandingOf(
      tx,
      scope,
      allocations.filter((x) => x.amount === null).map((x) => x.transactionId),
    );
    return allocations.reduce((sum, x) => sum.plus(x.amount ?? owed.get(x.transactionId) ?? 0), new Big(0));
  }

  async function load(tx: Tx, scope: PaymentRequestScope, id: string, what: Loaded): Promise<PaymentRequest> {
    const row = await repository.find(tx, scope, id);
    if (!row) throw notFound();
    return (await present(tx, scope, [row], what))[0]!;
  }

  async function accountOf(tx: Tx, scope: PaymentRequestScope, accountId: string) {
    const account = await repository.findAccount(tx, scope, accountId);
    if (!account) throw new ValidationError({ accountId: [m.accountNotFound] });
    return account;
  }

  /** The account's default billing contact: its name, first contact and default e-mail. */
  function billingOf(account: Account): NonNullable<PaymentRequestValues['billingContact']> {
    const contact = (account.contacts as AccountContact[])[0];
    const emails = account.emailAddresses as AccountEmail[];
    const email = emails.find((e) => e.isDefault) ?? emails[0];
    return {
      companyName: account.name,
      firstNames: contact?.firstNames ?? null,
      surname: contact?.surname ?? null,
      emailAddress: email?.emailAddress ?? null,
      address: null,
    };
  }

  /**
   * spec 2 §3 transactionAllocations: a Transaction request for existing invoices of the account.
   * Each must be this company's, the account's, in the request's currency, payable and owing; an
   * amount given lies within what it owes. The request asks for the sum (docs/decisions/025-a-payment-request-for-several-existing-invoices.md).
   */
  async function createForInvoices(
    tx: Tx,
    scope: PaymentRequestScope,
    account: Account,
    id: string,
    input: CreateInvoicesRequestInput,
    defaults: { usageType: 'Single' | 'Multiple'; validUntil: () => Date | null },
  ) {
    const wanted = input.transactionAllocations;
    const found = await repository.payableTransactions(tx, scope, wanted.map((x) => x.transactionId));
    const currency = input.currency ?? found.get(wanted[0]!.transactionId)?.currency ?? null;
    const amounts: Big[] = [];
    wanted.forEach((allocation, index) => {
      const field = `transactionAllocations.${index}`;
      const refuse = (message: string, at = 'transactionId'): never => {
        throw new UnprocessableError(message, { [`${field}.${at}`]: [message] });
      };
      const transaction = found.get(allocation.transactionId);
      if (!transaction) return refuse(m.transactionNotFound);
      if (transaction.accountId !== account.id) return refuse(m.transactionOtherAccount);
      if (transaction.currency !== currency) return refuse(m.transactionOtherCurrency);
      if (!payable.has(transaction.transactionType)) return refuse(m.transactionNotInvoice);
      const owed = new Big(transaction.owed);
      if (transaction.paidStatus === 'FullyPaid' || owed.lte(0)) return refuse(m.transactionNothingOutstanding);
      if (allocation.amount !== null && new Big(allocation.amount).gt(owed)) return refuse(m.amountAboveOutstanding, 'amount');
      const units = minorUnitsIssue(allocation.amount, currency);
      if (units) return refuse(units, 'amount');
      amounts.push(allocation.amount === null ? owed : new Big(allocation.amount));
    });
    const total = amounts.reduce((sum, value) => sum.plus(value), new Big(0));
    await repository.insert(tx, scope, {
      id,
      requestType: 'Transaction',
      requestStatus: 'Open',
      captureType: input.captureType,
      usageType: input.usageType ?? defaults.usageType,
      customerName: account.name,
      customerReference: input.customerReference ?? account.accountReference,
      currency: currency!,
      amountToPay: total.toString(),
      // Absent: the company's default expiry; null: the caller asked for none.
      validUntil: input.validUntil === undefined ? defaults.validUntil() : input.validUntil ? new Date(input.validUntil) : null,
      paymentRequiredBy: input.paymentRequiredBy,
      description: input.description,
      accountId: account.id,
      billingContact: input.billingContact ?? billingOf(account),
    });
    for (const [index, allocation] of wanted.entries()) {
      await repository.insertAllocation(tx, scope, id, {
        transactionId: allocation.transactionId,
        amount: amounts[index]!.toString(),
        required: true,
        canEditAmount: false,
        minimumAmount: null,
        maximumAmount: null,
      });
    }
    return load(tx, scope, id, { allocations: true, transactions: true, payments: true, editState: true });
  }

  return {
    async page(tx: Tx, scope: PaymentRequestScope, query: PageQuery<Fields, 'transactions'>, includeTransactions: boolean) {
      const { rows, total } = await repository.page(tx, scope, query);
      const withTransactions = includeTransactions || query.expand.includes('transactions');
      const items = await present(tx, scope, rows, { allocations: withTransactions, transactions: withTransactions });
      return { items, totalItems: total.count, totalItemsEstimated: total.estimated };
    },

    count: (tx: Tx, scope: PaymentRequestScope, query: Pick<PageQuery<Fields>, 'filters'>) => repository.count(tx, scope, query),

    /** The detail: allocations, payment attempts, mails and edit state always; transactions when expanded. */
    get: (tx: Tx, scope: PaymentRequestScope, id: string, expandTransactions: boolean) =>
      load(tx, scope, id, { allocations: true, transactions: expandTransactions, payments: true, editState: true, mails: true }),

    /** get of several requests at once (the web hook payloads of a batch of settled payments), by id; those not found left out. */
    /** Several requests as the detail answers them (web hook payloads say what the page says). */
    async getMany(tx: Tx, scope: PaymentRequestScope, ids: string[], expandTransactions: boolean) {
      const rows = await repository.findMany(tx, scope, ids);
      const presented = await present(tx, scope, rows, { allocations: true, transactions: expandTransactions, payments: true, editState: true, mails: true });
      return new Map(presented.map((request, i) => [rows[i]!.id, request]));
    },

    async create(tx: Tx, scope: PaymentRequestScope, input: CreatePaymentRequestInput): Promise<PaymentRequest> {
      const account = await accountOf(tx, scope, input.accountId);
      const id = uuidv7();
      // spec 3 §2 payment request settings: the company's default usage type, and its default
      // link expiry counted from when the link starts to work (docs/decisions/068-preferences.md, "Preferences").
      const settings = await readPaymentRequestSettings(tx, scope);
      // spec 2 §4: the account's default usage type comes before the company's.
      const defaults = {
        ...settings,
        defaultUsageType: (account.defaultUsageType as UsageType | null) ?? settings.defaultUsageType,
      };
      const expiryFrom = (validFrom: Date | null) =>
        addExpiry(validFrom && validFrom.getTime() > Date.now() ? validFrom : new Date(), defaults.validUntilAddition);
      if (input.requestType === 'Account') {
        const validFrom = input.validFrom ? new Date(input.validFrom) : null;
        await repository.insert(tx, scope, {
          id,
          requestType: 'Account',
          requestStatus: 'Open',
          captureType: input.captureType,
          usageType: defaults.defaultUsageType,
          customerName: input.customerName ?? account.name,
          customerReference: input.customerReference ?? account.accountReference,
          currency: input.currency,
          amountToPay: String(input.amountToPay),
          validFrom,
          // Absent: the company's default expiry; null: the caller asked for none.
          validUntil:
            input.validUntil === undefined
              ? expiryFrom(validFrom)
              : input.validUntil
                ? new Date(input.validUntil)
                : null,
          paymentRequiredBy: input.paymentRequiredBy,
          description: input.description,
          test: input.test,
          accountId: account.id,
          billingContact: input.billingContact,
        });
        return load(tx, scope, id, { allocations: true, payments: true, editState: true });
      }
      if ('transactionAllocations' in input)
        return createForInvoices(tx, scope, account, id, input, {
          usageType: defaults.defaultUsageType,
          validUntil: () => expiryFrom(null),
        });
      // The New Request dialog asks for an invoice: it becomes an accounting transaction of the
      // account and a Transaction request paying it (docs/decisions/024-payment-requests.md, "Payment requests").
      const transactionId = uuidv7();
      await repository.insertTransaction(tx, scope, {
        id: transactionId,
        accountId: account.id,
        transactionReference: invoiceReference(),
        transactionType: 'Invoice',
        transactionDate: input.transactionDate,
        dueDate: input.dueDate,
        currency: input.currency,
        transactionAmount: String(input.amount),
        description: input.description,
        paymentTermsDescription: input.paymentTerms,
      });
      const contact = (account.contacts as AccountContact[])[0];
      const emails = account.emailAddresses as AccountEmail[];
      const email = emails.find((e) => e.isDefault) ?? emails[0];
      const values: PaymentRequestValues = {
        id,
        requestType: 'Transaction',
        requestStatus: 'Open',
        captureType: 'Immediate',
        usageType: defaults.defaultUsageType,
        customerName: account.name,
        customerReference: account.accountReference,
        currency: input.currency,
        amountToPay: String(input.amount),
        validFrom: new Date(input.transactionDate),
        validUntil: expiryFrom(null),
        paymentRequiredBy: input.dueDate,
        description: input.description,
        paymentTerms: input.paymentTerms,
        accountId: account.id,
        billingContact: {
          companyName: account.name,
          firstNames: contact?.firstNames ?? null,
          surname: contact?.surname ?? null,
          emailAddress: email?.emailAddress ?? null,
          address: null,
        },
      };
      await repository.insert(tx, scope, values);
      await repository.insertAllocation(tx, scope, id, {
        transactionId,
        amount: String(input.amount),
        required: true,
        canEditAmount: false,
        minimumAmount: null,
        maximumAmount: null,
      });
      return load(tx, scope, id, { allocations: true, transactions: true, payments: true, editState: true });
    },

    /** PATCH payment-requests: absent fields stay, null clears (spec 2 §4, §5). */
    async update(tx: Tx, scope: PaymentRequestScope, input: UpdatePaymentRequestInput): Promise<PaymentRequest> {
      const row = await repository.find(tx, scope, input.id, true);
      if (!row) throw notFound();
      const state = await assertEditable(tx, scope, row);
      const values: Partial<PaymentRequestValues> = {};
      if (input.description !== undefined) values.description = input.description;
      if (input.validFrom !== undefined) values.validFrom = input.validFrom ? new Date(input.validFrom) : null;
      if (input.validUntil !== undefined) values.validUntil = input.validUntil ? new Date(input.validUntil) : null;
      if (input.paymentRequiredBy !== undefined) values.paymentRequiredBy = input.paymentRequiredBy;
      if (input.billingContact !== undefined) values.billingContact = input.billingContact;
      if (input.deliveryContact !== undefined) values.deliveryContact = input.deliveryContact;
      if (input.usageType !== undefined && input.usageType !== row.usageType) {
        if (!state.canChangeUsage) throw new ConflictError(m.usageTypeLocked, 'usageTypeLocked');
        values.usageType = input.usageType;
      }
      // The stored pair must stay in order when only one side changes.
      const validFrom = values.validFrom !== undefined ? values.validFrom : row.validFrom;
      const validUntil = values.validUntil !== undefined ? values.validUntil : row.validUntil;
      if (validFrom && validUntil && validUntil < validFrom) throw new ValidationError({ validUntil: [m.validUntilBeforeValidFrom] });
      await repository.update(tx, scope, row.id, values);
      return load(tx, scope, row.id, { allocations: true, payments: true, editState: true });
    },

    /**
     * POST payment-requests/{id}/cancel (issue 19): an Open request becomes Cancelled; the payer's
     * link then says so. Not while a payer is at a provider's page with a payment of it (the row
     * lock makes a start and a cancel take turns): that payment could still take money.
     */
    async cancel(tx: Tx, scope: PaymentRequestScope, id: string): Promise<PaymentRequest> {
      const row = await repository.find(tx, scope, id, true);
      if (!row) throw notFound();
      if (row.requestStatus !== 'Open') throw new ConflictError(m.notCancellable, 'paymentRequestNotCancellable');
      const since = new Date(Date.now() - holdMinutes * 60_000);
      if (await repository.paymentInProgress(tx, scope, id, since))
        throw new ConflictError(m.paymentInProgress, 'paymentRequestPaymentInProgress');
      await repository.update(tx, scope, id, { requestStatus: 'Cancelled' });
      return load(tx, scope, id, { allocations: true, payments: true, editState: true });
    },

    /**
     * POST payment-requests/{id}/send (issue 22 item 7): who the link of an Open request is mailed
     * to, its billing contact's e-mail address. The mail itself goes out after the commit.
     */
    async sendable(tx: Tx, scope: PaymentRequestScope, id: string): Promise<{ emailAddress: string; requestUrl: string; row: PaymentRequestRow }> {
      const row = await repository.find(tx, scope, id);
      if (!row) throw notFound();
      if (row.requestStatus !== 'Open') throw new ConflictError(m.notSendable, 'paymentRequestNotSendable');
      const emailAddress = (row.billingContact as { emailAddress?: string | null } | null)?.emailAddress?.trim();
      if (!emailAddress) throw new UnprocessableError(m.noEmailAddress);
      return { emailAddress, requestUrl: requestUrl(row.id), row };
    },

    /** PATCH payment-requests/{id}/transaction-allocation-info (spec 2 §5 Allocation edit). */
    async updateAllocations(tx: Tx, scope: PaymentRequestScope, id: string, input: AllocationInfoInput): Promise<PaymentRequest> {
      const row = await repository.find(tx, scope, id, true);
      if (!row) throw notFound();
      await assertEditable(tx, scope, row);
      const stored = new Map((await repository.allocationsOf(tx, scope, [id])).map((x) => [x.transactionId, x]));
      input.forEach((allocation, index) => {
        if (!stored.has(allocation.transactionId)) {
          throw new ValidationError({ [`${index}.transactionId`]: [m.allocationNotFound] }, m.allocationNotFound);
        }
      });
      // Issue 10 item 6: the amount within the entry's limits and not above what the transaction
      // still owes (its amount owed, exact in numeric); an absent amount keeps the stored one.
      const outstanding = await repository.outstandingOf(tx, scope, input.map((allocation) => allocation.transactionId));
      const amounts = input.map((allocation) => {
        const previous = stored.get(allocation.transactionId)!;
        return allocation.amount ?? (previous.amount === null ? null : Number(previous.amount));
      });
      // Issue 21 item 15: amounts in the request's currency's minor units.
      input.forEach((allocation, index) => {
        for (const [field, label] of minorUnitFields) {
          const issue = minorUnitsIssue(allocation[field], row.currency, label);
          if (issue) throw new ValidationError({ [`${index}.${field}`]: [issue] }, issue);
        }
      });
      input.forEach((allocation, index) => {
        const owed = outstanding.get(allocation.transactionId);
        const aboveOwed = allocation.amount !== null && owed !== undefined && new Big(allocation.amount).gt(owed);
        const issue = allocationAmountIssue(amounts[index]!, allocation) ?? (aboveOwed ? m.amountAboveOutstanding : null);
        if (issue) throw new ValidationError({ [`${index}.amount`]: [issue] }, issue);
      });
      for (const [index, allocation] of input.entries()) {
        await repository.updateAllocation(tx, scope, id, { ...allocation, amount: amounts[index]! });
      }
      // Issue 19: the request asks what its allocations ask, in the same transaction.
      await repository.update(tx, scope, id, { amountToPay: (await askedTotal(tx, scope, id)).toString() });
      return load(tx, scope, id, { allocations: true, transactions: true, payments: true, editState: true });
    },
  };
}
export type PaymentRequestsService = ReturnType<typeof createPaymentRequestsService>;
