import Big from 'big.js';
import {
  createInvoicesRequestBody,
  currencyDecimalPlaces,
  payableTransactionTypes,
  statementMessages as sm,
  type CreatePaymentRequestInput,
  type StatementInvoice,
  type StatementPage,
  type StatementPay,
} from '@ledgerline/contract';
import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { type DatasetScope, inDataset, sameDataset } from '../../platform/scope.js';
import type { Database, Executor, Tx } from '../../db/client.js';
import { auditActivities } from '../../db/schema.js';
import {
  accounts,
  paymentRequestAllocations,
  paymentRequests,
  transactions,
} from '../../db/schema-receivables.js';
import { AppError, NotFoundError, UnprocessableError } from '../../platform/errors.js';
import { quoteTransactions, today } from '../money-rules/index.js';
import type { Quote } from '../money-rules/index.js';
import { feesReasonOf } from '../pay/index.js';
import type { PayRepository } from '../pay/index.js';
import type { PaymentRequestsService } from '../payment-requests/index.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import { findStatementLink, type FoundStatementLink } from './statement-links.js';

/** Who paid from a statement, for the audit activity (no sign-in: the payer). */
export interface StatementActor {
  ipAddress?: string | null;
  requestId?: string | null;
}

/** 410: the link is known but past its expiry. */
export class StatementExpiredError extends AppError {
  constructor() {
    super(410, 'Gone', sm.expired, { errorCode: 'statementLinkExpired' });
  }
}

const money = (value: Big | string, currency: string) =>
  Number(new Big(value).toFixed(currencyDecimalPlaces(currency)));

/** The open invoices of one account, oldest first: payable types that still owe something. */
async function openInvoices(
  executor: Executor,
  scope: DatasetScope,
  accountId: string,
  lock = false,
) {
  const query = executor
    .select({
      id: transactions.id,
      accountId: transactions.accountId,
      reference: transactions.transactionReference,
      description: transactions.description,
      currency: transactions.currency,
      transactionDate: transactions.transactionDate,
      dueDate: transactions.dueDate,
      transactionAmount: transactions.transactionAmount,
      allocatedAmount: transactions.allocatedAmount,
      discountedAmount: transactions.discountedAmount,
    })
    .from(transactions)
    .where(
      and(
        inDataset(transactions, scope),
        eq(transactions.accountId, accountId),
        inArray(transactions.transactionType, [...payableTransactionTypes]),
        sql`${transactions.transactionAmount} - ${transactions.allocatedAmount} - ${transactions.discountedAmount} > 0`,
      ),
    )
    .orderBy(
      asc(transactions.transactionDate),
      asc(transactions.dueDate),
      asc(transactions.transactionReference),
      asc(transactions.id),
    );
  return lock ? query.for('update') : query;
}

function invoiceOf(
  row: Awaited<ReturnType<typeof openInvoices>>[number],
  quote: Quote,
  on: string,
): StatementInvoice {
  const fees = quote.fees.reduce((sum, fee) => sum.plus(fee.amount), new Big(0));
  return {
    transactionId: row.id,
    reference: row.reference,
    description: row.description,
    transactionDate: row.transactionDate,
    dueDate: row.dueDate,
    currency: row.currency,
    outstandingAmount: money(quote.outstandingAmount, row.currency),
    discount: money(quote.discount, row.currency),
    fees: money(fees, row.currency),
    feesReason: feesReasonOf(quote, row.dueDate),
    amountToPay: money(quote.amountToPay, row.currency),
    overdue: row.dueDate !== null && row.dueDate < on,
  };
}

/**
 * The statement page and its pay call, without sign-in: the token in the link is what
 * gives access. Paying makes (or reuses) a Transaction payment request of the invoices ticked, so
 * the payment goes through the payer page (`/pay/{id}`) with every provider and lifecycle rule.
 */
export function createStatementsService(deps: {
  database: Database;
  payRepository: Pick<PayRepository, 'company'>;
  paymentRequests: PaymentRequestsService;
}) {
  const { database, payRepository, paymentRequests: requests } = deps;

  /** The link of a token that works now: 404 unknown, 410 expired. */
  async function usable(token: string): Promise<FoundStatementLink> {
    const link = await findStatementLink(database.db, token);
    if (!link) throw new NotFoundError(sm.unknown);
    if (link.expiresOn !== null && link.expiresOn.getTime() <= Date.now())
      throw new StatementExpiredError();
    return link;
  }

  async function accountOf(tx: Executor, scope: DatasetScope, accountId: string) {
    const [account] = await tx
      .select({ name: accounts.name, reference: accounts.accountReference })
      .from(accounts)
      .where(and(inDataset(accounts, scope), eq(accounts.id, accountId)));
    if (!account) throw new NotFoundError(sm.unknown);
    return account;
  }

  /** The statement as it stands today. */
  async function statementIn(tx: Executor, link: FoundStatementLink): Promise<StatementPage> {
    const scope = { tenantId: link.tenantId, datasetId: link.datasetId };
    const quotedOn = today();
    const [account, rows, company] = await Promise.all([
      accountOf(tx, scope, link.accountId),
      openInvoices(tx, scope, link.accountId),
      payRepository.company(tx, scope),
    ]);
    const quotes = await quoteTransactions(tx, scope, rows, quotedOn);
    const invoices = rows.map((row, i) => invoiceOf(row, quotes[i]!, quotedOn));
    const totals = new Map<string, Big>();
    for (const invoice of invoices)
      totals.set(
        invoice.currency,
        (totals.get(invoice.currency) ?? new Big(0)).plus(invoice.amountToPay),
      );
    const details = company.details;
    return {
      company: {
        name: details?.name ?? company.datasetName ?? 'Ledgerline',
        logoUrl: null,
        website: details?.website ?? null,
        emailAddress: details?.email ?? null,
        telephone: details?.telephone ?? null,
        addressLines: details
          ? [
              details.address1,
              details.address2,
              details.city,
              details.state,
              details.postCode,
              details.country,
            ].filter((line): line is string => !!line && line.trim() !== '')
          : [],
      },
      accountName: account.name,
      accountReference: account.reference,
      quotedOn,
      expiresAt: link.expiresOn?.toISOString() ?? null,
      invoices,
      totals: [...totals].map(([currency, total]) => ({
        currency,
        amountToPay: money(total, currency),
      })),
    };
  }

  /** An Open request of the account asking exactly these invoices, still valid: the one to reuse. */
  async function reusable(
    tx: Tx,
    scope: DatasetScope,
    accountId: string,
    ids: string[],
  ): Promise<string | null> {
    const now = new Date();
    const candidates = await tx
      .select({
        id: paymentRequests.id,
        transactionIds: sql<
          string[]
        >`array_agg(${paymentRequestAllocations.transactionId}::text order by ${paymentRequestAllocations.transactionId})`,
      })
      .from(paymentRequests)
      .innerJoin(
        paymentRequestAllocations,
        and(
          sameDataset(paymentRequestAllocations, paymentRequests),
          eq(paymentRequestAllocations.paymentRequestId, paymentRequests.id),
        ),
      )
      .where(
        and(
          inDataset(paymentRequests, scope),
          eq(paymentRequests.accountId, accountId),
          eq(paymentRequests.requestType, 'Transaction'),
          eq(paymentRequests.requestStatus, 'Open'),
          or(isNull(paymentRequests.validUntil), gt(paymentRequests.validUntil, now)),
          or(isNull(paymentRequests.validFrom), sql`${paymentRequests.validFrom} <= ${now}`),
          // Only requests a statement made: what the merchant asked by hand stays theirs.
          eq(paymentRequests.description, statementDescription),
        ),
      )
      .groupBy(paymentRequests.id, paymentRequests.createdOn)
      .orderBy(sql`${paymentRequests.createdOn} desc`);
    const wanted = [...ids].sort().join(',');
    return candidates.find((c) => [...c.transactionIds].sort().join(',') === wanted)?.id ?? null;
  }

  return {
    /** GET statements/{token}. */
    async page(token: string): Promise<StatementPage> {
      const link = await usable(token);
      return database.readAsTenant(link.tenantId, (tx) => statementIn(tx, link));
    },

    /** The statement with its link, for the PDF. */
    async forPdf(token: string): Promise<StatementPage> {
      return this.page(token);
    },

    /**
     * POST statements/{token}/pay: the invoices ticked, each still open on the statement and in
     * one currency, become (or find) a Transaction request asking each in full; the payer pays it
     * on its page. The request, its web hook event and the audit activity commit together.
     */
    async pay(
      token: string,
      transactionIds: string[],
      actor: StatementActor,
    ): Promise<StatementPay> {
      const link = await usable(token);
      const scope: DatasetScope = { tenantId: link.tenantId, datasetId: link.datasetId };
      const ids = transactionIds.map((id) => id.toLowerCase());
      return database.withTenant(link.tenantId, async (tx) => {
        const open = await openInvoices(tx, scope, link.accountId, true);
        const byId = new Map(open.map((row) => [row.id, row]));
        const seen = new Set<string>();
        ids.forEach((id, index) => {
          const field = `transactionIds.${index}`;
          if (seen.has(id))
            throw new UnprocessableError(sm.listedTwice, { [field]: [sm.listedTwice] });
          seen.add(id);
          if (!byId.has(id))
            throw new UnprocessableError(sm.notOnStatement, { [field]: [sm.notOnStatement] });
        });
        if (ids.length === 0)
          throw new UnprocessableError(sm.nothingChosen, { transactionIds: [sm.nothingChosen] });
        const currencies = new Set(ids.map((id) => byId.get(id)!.currency));
        if (currencies.size > 1)
          throw new UnprocessableError(sm.oneCurrency, { transactionIds: [sm.oneCurrency] });
        // Oldest first, as the statement lists them.
        const ordered = open.filter((row) => seen.has(row.id)).map((row) => row.id);
        const existing = await reusable(tx, scope, link.accountId, ordered);
        let requestId = existing;
        if (!requestId) {
          const input = createInvoicesRequestBody.parse({
            requestType: 'Transaction',
            accountId: link.accountId,
            transactionAllocations: ordered.map((transactionId) => ({
              transactionId,
              amount: null,
            })),
            description: statementDescription,
            usageType: 'Single',
            captureType: 'Immediate',
          });
          // Absent validUntil: the company's default link expiry, as for any new request (the
          // body's parse turns absent into null, which would mean "no expiry").
          const created = await requests.create(tx, scope, {
            ...input,
            validUntil: undefined,
          } as unknown as CreatePaymentRequestInput);
          requestId = created.id;
          await recordWebhookEvent(tx, scope, {
            type: 'payment-request.created',
            recordType: 'PaymentRequest',
            recordId: created.id,
            payload: created,
          });
        }
        await tx.insert(auditActivities).values({
          tenantId: scope.tenantId,
          id: uuidv7(),
          datasetId: scope.datasetId,
          operation: 'PayStatement',
          resourceType: 'PaymentRequest',
          resourceId: requestId,
          userName: 'Payer',
          status: 201,
          ipAddress: actor.ipAddress ?? null,
          requestId: actor.requestId ?? null,
        });
        return {
          paymentRequestId: requestId,
          payUrl: `/pay/${requestId}`,
          reused: existing !== null,
        };
      });
    },
  };
}

/** The description of the requests a statement makes (and the mark of those it may reuse). */
export const statementDescription = 'Paid from an account statement';

export type StatementsService = ReturnType<typeof createStatementsService>;
