import Big from 'big.js';
import {
  addExpiry,
  minorUnitsIssue,
  newRequestDefaults,
  payableTransactionTypes,
  paymentRequestMessages as m,
  type CreateInvoicesRequestInput,
  type CreatePaymentRequestInput,
  type PaymentRequest,
  type UsageType,
} from '@ledgerline/contract';
import { randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { UnprocessableError, ValidationError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import { readPaymentRequestSettings } from '../company-settings/index.js';
import type {
  PaymentRequestValues,
  PaymentRequestsRepository,
} from './payment-requests.repository.js';
import { load, type RequestsContext } from './payment-requests.read.js';

type Account = NonNullable<Awaited<ReturnType<PaymentRequestsRepository['findAccount']>>>;
type AccountInput = Extract<CreatePaymentRequestInput, { requestType: 'Account' }>;
type NewInvoiceInput = Exclude<
  CreatePaymentRequestInput,
  AccountInput | CreateInvoicesRequestInput
>;
/** The company's (or the account's) defaults a new request takes. */
interface Defaults {
  usageType: 'Single' | 'Multiple';
  /** The default expiry, counted from when the link starts to work. */
  validUntil: (validFrom: Date | null) => Date | null;
}

/** spec 2 §9: a random invoice reference starts with INV. */
function invoiceReference(): string {
  return `${newRequestDefaults.invoiceReferencePrefix}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

const payable: ReadonlySet<string> = new Set(payableTransactionTypes);

interface AccountContact {
  firstNames?: string;
  surname?: string;
}
interface AccountEmail {
  emailAddress?: string;
  isDefault?: boolean;
}

async function accountOf(ctx: RequestsContext, tx: Tx, scope: DatasetScope, accountId: string) {
  const account = await ctx.repository.findAccount(tx, scope, accountId);
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
 * spec 3 §2 payment request settings: the company's default usage type, and its default link
 * expiry counted from when the link starts to work (docs/decisions/068-preferences.md,
 * "Preferences"). spec 2 §4: the account's default usage type comes before the company's.
 */
async function defaultsOf(tx: Tx, scope: DatasetScope, account: Account): Promise<Defaults> {
  const settings = await readPaymentRequestSettings(tx, scope);
  return {
    usageType: (account.defaultUsageType as UsageType | null) ?? settings.defaultUsageType,
    validUntil: (validFrom) =>
      addExpiry(
        validFrom && validFrom.getTime() > Date.now() ? validFrom : new Date(),
        settings.validUntilAddition,
      ),
  };
}

/** An Account request: an amount asked on the account, not tied to its invoices. */
async function createForAccount(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  account: Account,
  id: string,
  input: AccountInput,
  defaults: Defaults,
) {
  const validFrom = input.validFrom ? new Date(input.validFrom) : null;
  await ctx.repository.insert(tx, scope, {
    id,
    requestType: 'Account',
    requestStatus: 'Open',
    captureType: input.captureType,
    usageType: defaults.usageType,
    customerName: input.customerName ?? account.name,
    customerReference: input.customerReference ?? account.accountReference,
    currency: input.currency,
    amountToPay: String(input.amountToPay),
    validFrom,
    // Absent: the company's default expiry; null: the caller asked for none.
    validUntil:
      input.validUntil === undefined
        ? defaults.validUntil(validFrom)
        : input.validUntil
          ? new Date(input.validUntil)
          : null,
    paymentRequiredBy: input.paymentRequiredBy,
    description: input.description,
    test: input.test,
    accountId: account.id,
    billingContact: input.billingContact,
  });
  return load(ctx, tx, scope, id, { allocations: true, payments: true, editState: true });
}

/**
 * What each invoice asked for is to be paid: each must be this company's, the account's, in the
 * request's currency, payable and owing; an amount given lies within what it owes.
 */
async function invoiceAmounts(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  account: Account,
  input: CreateInvoicesRequestInput,
) {
  const wanted = input.transactionAllocations;
  const found = await ctx.repository.payableTransactions(
    tx,
    scope,
    wanted.map((x) => x.transactionId),
  );
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
    if (transaction.paidStatus === 'FullyPaid' || owed.lte(0))
      return refuse(m.transactionNothingOutstanding);
    if (allocation.amount !== null && new Big(allocation.amount).gt(owed))
      return refuse(m.amountAboveOutstanding, 'amount');
    const units = minorUnitsIssue(allocation.amount, currency);
    if (units) return refuse(units, 'amount');
    amounts.push(allocation.amount === null ? owed : new Big(allocation.amount));
  });
  return { currency: currency!, amounts };
}

/**
 * spec 2 §3 transactionAllocations: a Transaction request for existing invoices of the account.
 * The request asks for the sum (docs/decisions/025-a-payment-request-for-several-existing-invoices.md).
 */
async function createForInvoices(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  account: Account,
  id: string,
  input: CreateInvoicesRequestInput,
  defaults: Defaults,
) {
  const { currency, amounts } = await invoiceAmounts(ctx, tx, scope, account, input);
  const total = amounts.reduce((sum, value) => sum.plus(value), new Big(0));
  await ctx.repository.insert(tx, scope, {
    id,
    requestType: 'Transaction',
    requestStatus: 'Open',
    captureType: input.captureType,
    usageType: input.usageType ?? defaults.usageType,
    customerName: account.name,
    customerReference: input.customerReference ?? account.accountReference,
    currency,
    amountToPay: total.toString(),
    // Absent: the company's default expiry; null: the caller asked for none.
    validUntil:
      input.validUntil === undefined
        ? defaults.validUntil(null)
        : input.validUntil
          ? new Date(input.validUntil)
          : null,
    paymentRequiredBy: input.paymentRequiredBy,
    description: input.description,
    accountId: account.id,
    billingContact: input.billingContact ?? billingOf(account),
  });
  for (const [index, allocation] of input.transactionAllocations.entries()) {
    await ctx.repository.insertAllocation(tx, scope, id, {
      transactionId: allocation.transactionId,
      amount: amounts[index]!.toString(),
      required: true,
      canEditAmount: false,
      minimumAmount: null,
      maximumAmount: null,
    });
  }
  return load(ctx, tx, scope, id, {
    allocations: true,
    transactions: true,
    payments: true,
    editState: true,
  });
}

/**
 * The New Request dialog asks for an invoice: it becomes an accounting transaction of the account
 * and a Transaction request paying it (docs/decisions/024-payment-requests.md, "Payment requests").
 */
async function createForNewInvoice(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  account: Account,
  id: string,
  input: NewInvoiceInput,
  defaults: Defaults,
) {
  const transactionId = uuidv7();
  await ctx.repository.insertTransaction(tx, scope, {
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
  await ctx.repository.insert(tx, scope, {
    id,
    requestType: 'Transaction',
    requestStatus: 'Open',
    captureType: 'Immediate',
    usageType: defaults.usageType,
    customerName: account.name,
    customerReference: account.accountReference,
    currency: input.currency,
    amountToPay: String(input.amount),
    validFrom: new Date(input.transactionDate),
    validUntil: defaults.validUntil(null),
    paymentRequiredBy: input.dueDate,
    description: input.description,
    paymentTerms: input.paymentTerms,
    accountId: account.id,
    billingContact: billingOf(account),
  });
  await ctx.repository.insertAllocation(tx, scope, id, {
    transactionId,
    amount: String(input.amount),
    required: true,
    canEditAmount: false,
    minimumAmount: null,
    maximumAmount: null,
  });
  return load(ctx, tx, scope, id, {
    allocations: true,
    transactions: true,
    payments: true,
    editState: true,
  });
}

/** spec 2 §2–§4: a new request of one of the three kinds, on one of the company's accounts. */
export async function createPaymentRequest(
  ctx: RequestsContext,
  tx: Tx,
  scope: DatasetScope,
  input: CreatePaymentRequestInput,
): Promise<PaymentRequest> {
  const account = await accountOf(ctx, tx, scope, input.accountId);
  const id = uuidv7();
  const defaults = await defaultsOf(tx, scope, account);
  if (input.requestType === 'Account')
    return createForAccount(ctx, tx, scope, account, id, input, defaults);
  if ('transactionAllocations' in input)
    return createForInvoices(ctx, tx, scope, account, id, input, defaults);
  return createForNewInvoice(ctx, tx, scope, account, id, input, defaults);
}
