import { CheckoutStartError } from '../../providers/checkout-support.js';
import Big from 'big.js';
import {
  currencyDecimalPlaces,
  sandboxCards,
  type PayPageAnswer,
  type PayPaymentStatus,
  type SandboxCardBody,
  type StartPaymentBody,
  type StartedPayment,
  type TranSafeTicketBody,
} from '@ledgerline/contract';
import { randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor, Tx } from '../../db/client.js';
import { auditActivities } from '../../db/schema.js';
import { payers } from '../../db/schema-receivables.js';
import {
  AppError,
  ConflictError,
  NotFoundError,
  UnprocessableError,
} from '../../platform/errors.js';
import type {
  CheckoutConfiguration,
  CheckoutRegistry,
  CheckoutStartInput,
  CheckoutStatus,
  PayerBrowser,
} from '../../providers/checkout.js';
import { ShortLivedCache } from '../../platform/short-lived-cache.js';
import type { SecretBox } from '../../platform/secrets.js';
import {
  askedInvoiceOf,
  buildPayQuote,
  loadCompanyFacts,
  methodRefusesAmount,
  offeredOf,
  offeredTotals,
  partInvoiceOf,
  wholeInvoiceOf,
  receiptOf,
  type CompanyFacts,
  type Offered,
  type PayQuote,
} from './pay-page-answer.js';
import type { Quote } from '../money-rules/index.js';
import type { PayRepository, PayScope, PaymentRow, ProviderRow } from './pay.repository.js';
import { referenceForProvider } from './lifecycle.js';
import { readPreferences } from '../company-settings/index.js';
import { findCountry } from '../geo-data/index.js';

/**
 * The country a provider is given for the payer's address: the payer page asks for none, so the
 * company's default country (spec 3 §3 preferences), as its alpha-2 code.
 */
async function defaultCountryOf(tx: Tx, scope: PayScope): Promise<string> {
  const { defaultCountryId } = await readPreferences(tx, scope);
  return findCountry(defaultCountryId)?.alpha2Code ?? 'GB';
}
import type { FinishActor, PaymentFinish, PaymentOutcome } from './finish.js';

/** The payer-facing messages of the pay calls (docs/api.md "The payer page"). */
export const payMessages = {
  expired: 'This payment request has expired or does not exist.',
  cancelled: 'This payment request was cancelled.',
  notYetOpen: 'This payment link is not open yet. You can pay from the time it shows.',
  noDefaultProvider: 'This company cannot take payments online yet.',
  alreadyPaid: 'This payment request has already been paid.',
  inProgress: 'Another payment for this request is in progress. Please try again in a few minutes.',
  methodUnavailable: 'This way to pay is not available for this request. Please choose another.',
  notPartPayable: 'This request must be paid in full.',
  paymentNotFound: 'The payment was not found.',
  notSandbox: 'This payment is not a Sandbox payment.',
  providerUnreachable: 'The payment provider could not be reached. Please try again in a moment.',
  declined: 'Your card was declined',
  notEditable: 'The amount of this invoice cannot be changed. Pay it in full.',
  listedTwice: 'List each invoice once.',
  nothingChosen: 'Choose at least one invoice to pay.',
  notCardFrame: 'This payment does not take card details from a payment frame.',
  ticketAlreadySent:
    'Card details were already sent for this payment. Refresh the page to see its outcome.',
  ticketNotVerified: 'The card details could not be verified. Please enter them again.',
} as const;

/**
 * A card ticket for a frame's payment (TranSafe ticket, Opayo Pi card identifier), with what 3-D
 * Secure needs to know of the payer's browser.
 */
export type CardTicket = Pick<TranSafeTicketBody, 'ticket'> & {
  ticketHmac?: string;
  browser?: PayerBrowser;
};

/** The 422 messages of an invoice's chosen amount (docs/api.md "The payer page"). */
export const editMessages = {
  required: (reference: string, minimum: string) =>
    `Invoice ${reference} must be paid: enter at least ${minimum}.`,
  belowMinimum: (reference: string, minimum: string) =>
    `Enter at least ${minimum} for invoice ${reference}.`,
  aboveMaximum: (reference: string, maximum: string) =>
    `Enter at most ${maximum} for invoice ${reference}.`,
  wholeUnits: (reference: string, units: string) =>
    `Enter the amount for invoice ${reference} in whole ${units}.`,
  feesInFull: (reference: string, full: string, outstanding: string) =>
    `Pay invoice ${reference} in full (${full}) or at most ${outstanding}: late fees are paid only with the whole invoice.`,
} as const;

const expiredAnswer: PayPageAnswer = { state: 'Expired' };
/** A status poll asks the provider at most this often per payment. */
const statusCheckSeconds = 3;

const outcomeOf = (status: string): PayPaymentStatus['outcome'] =>
  status === 'Paid' || status === 'Refunded' || status === 'PartRefunded'
    ? 'Succeeded'
    : status === 'Pending'
      ? 'Reserved'
      : status === 'Cancelled'
        ? 'Cancelled'
        : status === 'Failed' || status === 'NotAuthorised' || status === 'Rejected'
          ? 'Failed'
          : 'Waiting';

/**
 * The payer's amounts for editable invoices, checked against their bounds (edit-rule.ts): what is
 * stored as offered, and the payment's total. An invoice paid less than in full gives up its
 * discount and fee lines, so it is never paid more than it owes before fees; 0 leaves out an
 * invoice that is not required. Invoices not listed are paid as the request asks (offeredOf).
 */
export function chooseAmounts(
  quote: PayQuote,
  asked: NonNullable<StartPaymentBody['invoices']>,
  currency: string,
): { offered: Offered; total: Big } {
  const decimals = currencyDecimalPlaces(currency);
  const shown = (value: Big | string) => `${currency} ${new Big(value).toFixed(decimals)}`;
  const units = decimals > 0 ? 'pence or cents' : 'units';
  const refuse = (index: number, message: string): never => {
    throw new UnprocessableError(message, { [`invoices.${index}.amount`]: [message] });
  };
  const offered = offeredOf(quote);
  // The full amount as the page shows it (in whole minor units): paying it is paying in full.
  const inFull = (q: Quote) => new Big(q.amountToPay).round(decimals, Big.roundDown);
  const references = new Map(quote.page.invoices.map((i) => [i.transactionId, i.reference]));
  const quoted = new Map(quote.quotes.map((q) => [q.transactionId, q]));
  const wanted = new Map<string, Big>();
  for (const [index, item] of asked.entries()) {
    const bounds = quote.editable.get(item.transactionId);
    const q = quoted.get(item.transactionId);
    if (!bounds || !q)
      throw new UnprocessableError(payMessages.notEditable, {
        [`invoices.${index}.transactionId`]: [payMessages.notEditable],
      });
    if (wanted.has(item.transactionId))
      throw new UnprocessableError(payMessages.listedTwice, {
        [`invoices.${index}.transactionId`]: [payMessages.listedTwice],
      });
    const reference = references.get(item.transactionId) ?? item.transactionId;
    const amount = new Big(item.amount);
    if (!amount.round(decimals).eq(amount))
      refuse(index, editMessages.wholeUnits(reference, units));
    if (amount.eq(0)) {
      if (bounds.required)
        refuse(index, editMessages.required(reference, shown(bounds.minimumAmount)));
    } else {
      if (amount.lt(bounds.minimumAmount))
        refuse(index, editMessages.belowMinimum(reference, shown(bounds.minimumAmount)));
      if (amount.gt(bounds.maximumAmount))
        refuse(index, editMessages.aboveMaximum(reference, shown(bounds.maximumAmount)));
      if (amount.lt(inFull(q)) && amount.gt(q.outstandingAmount))
        refuse(
          index,
          editMessages.feesInFull(reference, shown(q.amountToPay), shown(q.outstandingAmount)),
        );
    }
    wanted.set(item.transactionId, amount);
  }
  const invoices: Offered['invoices'] = [];
  for (const q of quote.quotes) {
    const amount = wanted.get(q.transactionId);
    const invoice =
      amount === undefined
        ? askedInvoiceOf(quote, q)
        : amount.gte(inFull(q))
          ? wholeInvoiceOf(quote, q)
          : amount.gt(0)
            ? partInvoiceOf(q, amount)
            : null;
    if (invoice) invoices.push(invoice);
  }
  const { discountTotal, feeTotal, total } = offeredTotals(invoices);
  if (total.lte(0))
    throw new UnprocessableError(payMessages.nothingChosen, {
      invoices: [payMessages.nothingChosen],
    });
  return {
    offered: { ...offered, invoices, discountTotal, feeTotal, total: total.toFixed() },
    total,
  };
}

function ledgerlineReference(): string {
  return `LL${Date.now().toString().slice(-7)}${String(randomInt(0, 100_000)).padStart(5, '0')}`;
}

/**
 * The payer page's calls, without sign-in: the page, the payment's start, its status
 * and the Sandbox card form. Amounts always come from the server; a provider is called between
 * transactions, never inside one (style.md §7).
 */
export function createPayService(deps: {
  database: Database;
  repository: PayRepository;
  checkouts: CheckoutRegistry;
  /** The configuration's row and credentials in clear (payment-providers credentialsFor). */
  configurations: (
    tx: Tx,
    scope: PayScope,
    id: string,
  ) => Promise<{ row: ProviderRow; credentials: Record<string, unknown> }>;
  finish: PaymentFinish;
  /**
   * Seals a payment's own provider secret (Opayo Server's SecurityKey) before it is stored; opens
   * a configuration's credentials for its adapter's `takes`.
   */
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  publicUrl: string;
  holdMinutes: number;
  log: FastifyBaseLogger;
}) {
  const { database, repository, checkouts, finish, publicUrl, log } = deps;
  // Whether a configuration can take money on the page: its provider has a checkout, and the
  // adapter takes its settings and credentials (an unconnected Stripe account does not). Which
  // configurations are offered at all: pay-page-answer.ts offeredConfigurations.
  const canPay = (configuration: ProviderRow) => {
    const adapter = checkouts.forProvider(configuration.providerName);
    if (adapter === null) return false;
    if (!adapter.takes) return true;
    let credentials: Record<string, unknown> = {};
    try {
      credentials = JSON.parse(deps.secrets.open(configuration.credentialsSealed)) as Record<
        string,
        unknown
      >;
    } catch (error) {
      log.warn({ err: error, paymentProviderId: configuration.id }, 'credentials unreadable');
      return false;
    }
    return adapter.takes((configuration.settings ?? {}) as Record<string, unknown>, credentials);
  };
  const quoteOptions = { holdMinutes: deps.holdMinutes, canPay };
  // The page keeps a company's details, methods and money rules for a few seconds (a payer's
  // reload, many payers of one merchant); any write in this process forgets them at once, other
  // processes' writes within 5 s (docs/decisions/078-the-payer-page-keeps-company-facts-briefly.md "The payer page keeps company facts briefly").
  // A start always reads them afresh inside its transaction.
  const facts = new ShortLivedCache<CompanyFacts>();
  database.afterWrite(() => facts.forgetAll());
  const companyFacts = async (tx: Executor, scope: PayScope) => {
    const key = `${scope.tenantId}:${scope.datasetId}`;
    const known = facts.get(key);
    if (known) return known;
    const generation = facts.begin();
    const loaded = await loadCompanyFacts(tx, repository, scope, canPay);
    facts.set(key, loaded, generation);
    return loaded;
  };

  // Which company a request belongs to never changes (ids are unique across companies): the page
  // remembers it, so a page read is one tenant-scoped statement that reads the request itself as
  // it is now (docs/decisions/079-the-payer-page-is-one-statement.md "The payer page is one statement"). Only ids that exist are
  // remembered; one whose request is gone is forgotten on its next read.
  const companyOfRequest = new Map<string, PayScope>();

  const configurationOf = (
    row: ProviderRow,
    credentials: Record<string, unknown>,
  ): CheckoutConfiguration => ({
    id: row.id,
    isTest: row.isTest,
    credentials,
    settings: (row.settings ?? {}) as Record<string, unknown>,
  });

  async function statusOf(
    scope: PayScope,
    requestId: string,
    paymentId: string,
  ): Promise<PayPaymentStatus> {
    return database.readAsTenant(scope.tenantId, async (tx) => {
      const [payment, quote] = await Promise.all([
        repository.payment(tx, scope, requestId, paymentId),
        repository.quote(tx, scope, paymentId),
      ]);
      if (!payment) throw new NotFoundError(payMessages.paymentNotFound);
      return presentStatus(payment, quote?.failureMessage ?? null);
    });
  }

  function presentStatus(payment: PaymentRow, failureMessage: string | null): PayPaymentStatus {
    const outcome = outcomeOf(payment.status);
    return {
      paymentId: payment.id,
      status: payment.status,
      outcome,
      message: outcome === 'Failed' || outcome === 'Cancelled' ? (failureMessage ?? null) : null,
      receipt: outcome === 'Succeeded' || outcome === 'Reserved' ? receiptOf(payment) : null,
    };
  }

  async function locatePayment(requestId: string): Promise<PayScope> {
    const located = await repository.locate(database.db, requestId);
    if (!located) throw new NotFoundError(payMessages.paymentNotFound);
    return { tenantId: located.tenantId, datasetId: located.datasetId };
  }

  return {
    /** GET pay/{id}: an unknown id answers exactly like an expired request. */
    async page(id: string): Promise<PayPageAnswer> {
      let scope = companyOfRequest.get(id);
      if (!scope) {
        const located = await repository.locate(database.db, id);
        if (!located) return expiredAnswer;
        scope = { tenantId: located.tenantId, datasetId: located.datasetId };
        if (companyOfRequest.size >= 10_000) companyOfRequest.clear();
        companyOfRequest.set(id, scope);
      }
      const known = scope;
      return database.readAsTenant(known.tenantId, async (tx) => {
        // One statement: the request as it is now, its payments, invoices and offers.
        const state = await repository.pageState(tx, known, id);
        if (!state.request) {
          companyOfRequest.delete(id);
          return expiredAnswer;
        }
        const quote = await buildPayQuote(tx, repository, known, state.request, {
          ...quoteOptions,
          companyFacts,
          state,
        });
        return quote?.page ?? expiredAnswer;
      });
    },

    async logo(id: string) {
      const located = await repository.locate(database.db, id);
      const scope = located && { tenantId: located.tenantId, datasetId: located.datasetId };
      const logo = scope
        ? await database.readAsTenant(scope.tenantId, (tx) => repository.logo(tx, scope))
        : null;
      if (!logo) throw new NotFoundError('The company has no logo.');
      return logo;
    },

    /** POST pay/{id}/payments: one transaction checks and records the attempt; then the provider. */
    async start(id: string, body: StartPaymentBody, actor: FinishActor): Promise<StartedPayment> {
      const located = await repository.locate(database.db, id);
      if (!located) throw new ConflictError(payMessages.expired, 'payRequestExpired');
      const scope: PayScope = { tenantId: located.tenantId, datasetId: located.datasetId };
      const started = await database.withTenant(scope.tenantId, async (tx) => {
        // The request's row lock makes concurrent attempts take turns: the second sees the first.
        const request = await repository.request(tx, scope, id, true);
        const quote = request
          ? await buildPayQuote(tx, repository, scope, request, quoteOptions)
          : null;
        if (!request || !quote) throw new ConflictError(payMessages.expired, 'payRequestExpired');
        const { page } = quote;
        if (page.state === 'Cancelled')
          throw new ConflictError(payMessages.cancelled, 'payRequestCancelled');
        if (page.state === 'NotYetOpen')
          throw new ConflictError(payMessages.notYetOpen, 'payRequestNotYetOpen');
        if (page.state === 'Completed' || quote.amountToPay.lte(0))
          throw new ConflictError(payMessages.alreadyPaid, 'payRequestPaid');
        if (quote.inFlight.length > 0)
          throw new ConflictError(payMessages.inProgress, 'payRequestInProgress');
        const method = page.methods.find((m) => m.configurationId === body.configurationId);
        if (!method)
          throw new UnprocessableError(payMessages.methodUnavailable, {
            configurationId: [payMessages.methodUnavailable],
          });
        let amount = quote.amountToPay;
        const decimals = currencyDecimalPlaces(request.currency);
        if (body.amount !== undefined) {
          if (!page.partPayment)
            throw new UnprocessableError(payMessages.notPartPayable, {
              amount: [payMessages.notPartPayable],
            });
          const { minimumAmount, maximumAmount } = page.partPayment;
          const asked = new Big(body.amount);
          const shown = (value: number) =>
            `${request.currency} ${new Big(value).toFixed(decimals)}`;
          if (asked.gt(maximumAmount)) {
            const message = `The amount is more than is left to pay (${shown(maximumAmount)}).`;
            throw new UnprocessableError(message, { amount: [message] });
          }
          if (asked.lt(minimumAmount) || !asked.round(decimals).eq(asked)) {
            const message = `Enter an amount of at least ${shown(minimumAmount)}, in whole ${decimals > 0 ? 'pence or cents' : 'units'}.`;
            throw new UnprocessableError(message, { amount: [message] });
          }
          amount = asked;
        }
        let offered = offeredOf(quote);
        if (body.invoices !== undefined && body.invoices.length > 0) {
          const chosen = chooseAmounts(quote, body.invoices, request.currency);
          offered = chosen.offered;
          amount = chosen.total;
        }
        // The method's payment amount filter applies to the amount the payer chose.
        const refused = methodRefusesAmount(method, amount, request.currency);
        if (refused) throw new UnprocessableError(refused, { configurationId: [refused] });
        const { row: configuration, credentials } = await deps.configurations(
          tx,
          scope,
          method.configurationId,
        );
        const payer = body.payer ?? {};
        const payerName = [payer.firstNames, payer.surname].filter(Boolean).join(' ') || null;
        let payerId: string | null = null;
        if (request.accountId && (payerName || payer.companyName || payer.emailAddress)) {
          payerId = uuidv7();
          await tx.insert(payers).values({
            ...scope,
            id: payerId,
            accountId: request.accountId,
            companyName: payer.companyName ?? null,
            firstNames: payer.firstNames ?? null,
            surname: payer.surname ?? null,
            emailAddress: payer.emailAddress ?? null,
          });
        }
        const paymentId = uuidv7();
        const reference = ledgerlineReference();
        await repository.insertPayment(tx, {
          ...scope,
          id: paymentId,
          type: 'Payment',
          status: 'Processing',
          allocatedStatus: 'WaitingToBeAllocated',
          ledgerlineReference: reference,
          statusDateTime: new Date(),
          totalAmount: amount.toFixed(4),
          currency: request.currency,
          paymentRequestId: request.id,
          customerName: payerName ?? request.customerName,
          companyName: payer.companyName ?? request.customerName,
          customerDetails: { ...payer },
          accountId: request.accountId,
          payerId,
          paymentProviderId: configuration.id,
          paymentProviderName: configuration.providerName,
          paymentMethodType: method.group,
        });
        // What the payer saw: the offers, fee lines and total (a part payment: only its amount;
        // chosen invoice amounts: those, without the discount or fees of a part-paid invoice).
        await repository.insertQuote(tx, {
          ...scope,
          paymentTransactionId: paymentId,
          paymentRequestId: request.id,
          offered: body.amount !== undefined ? { ...offered, total: amount.toFixed() } : offered,
        });
        await tx.insert(auditActivities).values({
          tenantId: scope.tenantId,
          id: uuidv7(),
          datasetId: scope.datasetId,
          operation: 'StartPayerPayment',
          resourceType: 'PaymentTransaction',
          resourceId: paymentId,
          userName: payerName ?? 'Payer',
          status: 201,
          ipAddress: actor.ipAddress ?? null,
          requestId: actor.requestId ?? null,
        });
        // The card is stored only with the payer's consent, and only where the method offers it.
        const saveCard = method.saveCard !== undefined && body.saveCard === true;
        const country = await defaultCountryOf(tx, scope);
        return {
          request,
          configuration,
          credentials,
          paymentId,
          reference,
          amount,
          payer,
          saveCard,
          country,
        };
      });

      const adapter = checkouts.forProvider(started.configuration.providerName)!;
      const returnUrl = `${publicUrl}/pay/${id}?payment=${started.paymentId}`;
      let result;
      try {
        result = await adapter.start({
          paymentTransactionId: started.paymentId,
          ledgerlineReference: started.reference,
          amount: started.amount.toFixed(4),
          currency: started.request.currency,
          captureType: started.request.captureType === 'Reserve' ? 'Reserve' : 'Immediate',
          description: started.request.description ?? `Payment ${started.reference}`,
          payer: { ...started.payer, country: started.country },
          saveCard: started.saveCard,
          returnUrl,
          cancelUrl: `${returnUrl}&cancelled=1`,
          notificationUrl: `${publicUrl}/api/v0/webhooks/${adapter.name.toLowerCase()}/${started.configuration.id}`,
          configuration: configurationOf(started.configuration, started.credentials),
        });
      } catch (error) {
        log.error({ err: error, paymentTransactionId: started.paymentId }, 'checkout start failed');
        // A provider that answered with a refusal says why (kept as the payment's provider event);
        // one that did not answer at all leaves nothing to say but to try again.
        const refused = error instanceof CheckoutStartError && !error.unreachable;
        const message = refused ? error.message : payMessages.providerUnreachable;
        await finish.finish(
          scope,
          started.paymentId,
          {
            status: 'Failed',
            errorMessage: message,
            ...(error instanceof CheckoutStartError ? { exchange: error.exchange } : {}),
          },
          actor,
        );
        throw refused
          ? new AppError(502, 'Bad Gateway', message)
          : new AppError(503, 'Service Unavailable', message);
      }
      await database.withTenant(scope.tenantId, async (tx) => {
        await repository.recordProviderStart(
          tx,
          scope,
          started.paymentId,
          result.providerReference,
        );
        if (result.secret)
          await repository.storeSecret(
            tx,
            scope,
            started.paymentId,
            deps.secrets.seal(result.secret),
          );
        await repository.recordEvent(tx, scope, started.paymentId, adapter.name, result.exchange);
      });
      return {
        paymentId: started.paymentId,
        amount: Number(started.amount.toFixed(currencyDecimalPlaces(started.request.currency))),
        currency: started.request.currency,
        next: result.next,
      };
    },

    /** GET pay/{id}/payments/{paymentId}: asks the provider (at most every few seconds) while Processing. */
    async status(
      id: string,
      paymentId: string,
      returnQuery: Record<string, string>,
      actor: FinishActor,
    ) {
      const scope = await locatePayment(id);
      const current = await statusOf(scope, id, paymentId);
      if (current.status !== 'Processing') return current;
      const ask = await database.withTenant(scope.tenantId, async (tx) => {
        const payment = await repository.payment(tx, scope, id, paymentId);
        const adapter = checkouts.forProvider(payment?.paymentProviderName ?? null);
        if (!payment?.paymentProviderId || !adapter) return null;
        if (!(await repository.claimStatusCheck(tx, scope, paymentId, statusCheckSeconds)))
          return null;
        const { row, credentials } = await deps.configurations(
          tx,
          scope,
          payment.paymentProviderId,
        );
        return { adapter, payment, configuration: configurationOf(row, credentials) };
      });
      if (!ask) return current;
      try {
        const answer = await ask.adapter.status({
          paymentTransactionId: paymentId,
          // The card-frame adapters read the step as the reference's suffix (lifecycle.ts).
          providerReference: referenceForProvider(ask.payment),
          returnQuery,
          configuration: ask.configuration,
        });
        // Without a stored reference the provider was asked about an id from the
        // return URL, which anyone can write: its answer counts only when it names this payment
        // (and never when it names another); otherwise it is recorded and ignored.
        const named = answer.paymentTransactionId;
        const ours = ask.payment.paymentProviderReference
          ? !named || named === paymentId
          : named === paymentId;
        if (!ours) {
          log.warn(
            { paymentTransactionId: paymentId, named },
            'status answer not for this payment',
          );
          await database.withTenant(scope.tenantId, (tx) =>
            repository.recordEvent(tx, scope, paymentId, ask.adapter.name, {
              ...answer.exchange,
              status: 'ignored: not this payment',
            }),
          );
        } else if (answer.status !== 'Processing') {
          await finish.finish(scope, paymentId, outcomeOfStatus(answer), actor);
        }
      } catch (error) {
        // The page keeps polling; the provider's notification may still settle it.
        log.warn({ err: error, paymentTransactionId: paymentId }, 'checkout status failed');
      }
      return statusOf(scope, id, paymentId);
    },

    /** POST pay/{id}/payments/{paymentId}/sandbox: the Sandbox's test card form decides at once. */
    async sandbox(id: string, paymentId: string, card: SandboxCardBody, actor: FinishActor) {
      const scope = await locatePayment(id);
      const found = await database.readAsTenant(scope.tenantId, async (tx) => {
        const payment = await repository.payment(tx, scope, id, paymentId);
        const request = payment ? await repository.request(tx, scope, id) : null;
        return payment && request ? { payment, request } : null;
      });
      if (!found) throw new NotFoundError(payMessages.paymentNotFound);
      if (found.payment.paymentProviderName !== 'Sandbox')
        throw new ConflictError(payMessages.notSandbox, 'notSandbox');
      if (found.payment.status !== 'Processing') return statusOf(scope, id, paymentId);
      const reserve = found.request.captureType === 'Reserve';
      const declined = card.cardNumber === sandboxCards.declined;
      const status = declined
        ? 'NotAuthorised'
        : card.cardNumber === sandboxCards.reserved || reserve
          ? 'Pending'
          : 'Paid';
      const reference = found.payment.paymentProviderReference;
      const providerStatus = declined
        ? 'declined'
        : status === 'Pending'
          ? 'requires_capture'
          : 'succeeded';
      await finish.finish(
        scope,
        paymentId,
        {
          status,
          paymentMethodType: 'Card',
          errorMessage: declined ? payMessages.declined : null,
          exchange: {
            eventType: declined
              ? 'payment.declined'
              : status === 'Pending'
                ? 'payment.authorised'
                : 'payment.captured',
            recordType: 'payment',
            recordId: reference,
            status: providerStatus,
            // Never the card number: its last four digits, as a provider shows them.
            payload: JSON.stringify(
              {
                id: reference,
                object: 'payment',
                status: providerStatus,
                amount: found.payment.totalAmount,
                currency: found.payment.currency,
                card: {
                  last4: card.cardNumber.slice(-4),
                  expiry: card.expiry,
                  name: card.cardholderName,
                },
                ...(declined
                  ? { error: { code: 'card_declined', message: payMessages.declined } }
                  : {}),
              },
              null,
              2,
            ),
          },
        },
        actor,
      );
      return statusOf(scope, id, paymentId);
    },

    /**
     * POST pay/{id}/payments/{paymentId}/transafe: the card ticket of a provider's frame, checked
     * against the frame's HMAC, claimed once (a second post is refused), charged with the payment's
     * own amount, and the provider's answer settled like any other outcome.
     */
    async cardTicket(id: string, paymentId: string, body: CardTicket, actor: FinishActor) {
      const scope = await locatePayment(id);
      const claimed = await database.withTenant(scope.tenantId, async (tx) => {
        const payment = await repository.payment(tx, scope, id, paymentId);
        const request = payment ? await repository.request(tx, scope, id) : null;
        if (!payment || !request) throw new NotFoundError(payMessages.paymentNotFound);
        const adapter = checkouts.forProvider(payment.paymentProviderName);
        if (!adapter?.verifyTicket || !adapter.chargeTicket || !payment.paymentProviderId)
          throw new ConflictError(payMessages.notCardFrame, 'notCardFrame');
        const reference = payment.paymentProviderReference;
        // Card details sent already: the ticket was claimed, or a 3-D Secure challenge waits.
        if (payment.status !== 'Processing' || !reference || payment.providerStep !== null)
          throw new ConflictError(payMessages.ticketAlreadySent, 'ticketAlreadySent');
        const { row, credentials } = await deps.configurations(
          tx,
          scope,
          payment.paymentProviderId,
        );
        const input = {
          paymentTransactionId: payment.id,
          ledgerlineReference: payment.ledgerlineReference,
          providerReference: reference,
          // The server's amount, as stored when the payment started; never the browser's.
          amount: String(payment.totalAmount),
          currency: payment.currency,
          captureType:
            request.captureType === 'Reserve' ? ('Reserve' as const) : ('Immediate' as const),
          ticket: body.ticket,
          ...(body.ticketHmac !== undefined ? { ticketHmac: body.ticketHmac } : {}),
          configuration: configurationOf(row, credentials),
          description: request.description ?? `Payment ${payment.ledgerlineReference}`,
          payer: {
            ...((payment.customerDetails ?? {}) as CheckoutStartInput['payer']),
            country: await defaultCountryOf(tx, scope),
          },
          ...(body.browser ? { browser: body.browser } : {}),
          challengeUrl: `${publicUrl}/api/v0/pay/${id}/payments/${payment.id}/3ds`,
        };
        if (!adapter.verifyTicket(input))
          throw new UnprocessableError(payMessages.ticketNotVerified, {
            ticket: [payMessages.ticketNotVerified],
          });
        if (!(await repository.claimTicket(tx, scope, payment.id, null)))
          throw new ConflictError(payMessages.ticketAlreadySent, 'ticketAlreadySent');
        return { adapter, input };
      });
      const answer = await claimed.adapter.chargeTicket!(claimed.input);
      if (answer.status === 'Processing' && answer.challenge && answer.providerReference) {
        // The card issuer wants 3-D Secure: the payment waits for its answer (completeChallenge).
        await database.withTenant(scope.tenantId, async (tx) => {
          await repository.recordProviderStart(
            tx,
            scope,
            paymentId,
            answer.providerReference!,
            'challenge',
          );
          await repository.recordEvent(tx, scope, paymentId, claimed.adapter.name, answer.exchange);
        });
        return { ...(await statusOf(scope, id, paymentId)), challenge: answer.challenge };
      }
      await finish.finish(scope, paymentId, outcomeOfStatus(answer), actor);
      return statusOf(scope, id, paymentId);
    },

    /**
     * POST pay/{id}/payments/{paymentId}/3ds: the card issuer's 3-D Secure page sends the payer
     * back with `cres`. Claimed once (a replay or a second post changes nothing), sent to the
     * provider for the final outcome, settled; the payer then lands on the page's outcome.
     */
    async completeChallenge(
      id: string,
      paymentId: string,
      body: { cres?: string; threeDSSessionData?: string },
      actor: FinishActor,
    ): Promise<string> {
      const pageUrl = `/pay/${encodeURIComponent(id)}?payment=${paymentId}`;
      const scope = await locatePayment(id);
      const claimed = await database.withTenant(scope.tenantId, async (tx) => {
        const payment = await repository.payment(tx, scope, id, paymentId);
        const request = payment ? await repository.request(tx, scope, id) : null;
        if (!payment || !request) throw new NotFoundError(payMessages.paymentNotFound);
        const adapter = checkouts.forProvider(payment.paymentProviderName);
        const reference = payment.paymentProviderReference ?? '';
        if (
          !adapter?.completeChallenge ||
          !payment.paymentProviderId ||
          payment.status !== 'Processing' ||
          payment.providerStep !== 'challenge' ||
          !reference ||
          !body.cres
        )
          return null;
        if (!(await repository.claimTicket(tx, scope, payment.id, 'challenge'))) return null;
        const { row, credentials } = await deps.configurations(
          tx,
          scope,
          payment.paymentProviderId,
        );
        return {
          adapter,
          input: {
            paymentTransactionId: payment.id,
            transactionId: reference,
            captureType:
              request.captureType === 'Reserve' ? ('Reserve' as const) : ('Immediate' as const),
            cres: body.cres,
            threeDSSessionData: body.threeDSSessionData ?? '',
            configuration: configurationOf(row, credentials),
          },
        };
      });
      if (!claimed) return pageUrl;
      const answer = await claimed.adapter.completeChallenge!(claimed.input);
      if (answer.status === 'Processing') {
        // The provider refused this answer (not the issuer's): the payment waits for the real one.
        await database.withTenant(scope.tenantId, async (tx) => {
          await repository.recordProviderStart(
            tx,
            scope,
            paymentId,
            claimed.input.transactionId,
            'challenge',
          );
          await repository.recordEvent(tx, scope, paymentId, claimed.adapter.name, answer.exchange);
        });
        return pageUrl;
      }
      await finish.finish(scope, paymentId, outcomeOfStatus(answer), actor);
      return pageUrl;
    },
  };
}
export type PayService = ReturnType<typeof createPayService>;

/** What a provider's status answer moves the payment to (finish.ts). */
function outcomeOfStatus(answer: CheckoutStatus): PaymentOutcome {
  return {
    status: answer.status,
    providerReference: answer.providerReference,
    paymentMethodType: answer.paymentMethodType,
    errorMessage: answer.errorMessage,
    exchange: answer.exchange,
    amount: answer.amount ?? null,
    currency: answer.currency ?? null,
  };
}
