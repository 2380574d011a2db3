import Big from 'big.js';
import {
  currencyDecimalPlaces,
  payMethodGroups,
  paymentProviderTypes,
  saveCardOfferOf,
  type PayInvoice,
  type PayMethod,
  type PayMethodGroup,
  type PayPage,
  type PayReceipt,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import type { CalendarDate } from '../money-rules/index.js';
import { editBoundsOf, mayEditAmount, type EditBounds } from './edit-rule.js';
import { quoteTransactions, priceTransactions, today } from '../money-rules/index.js';
import type { InvoiceFacts } from '../money-rules/index.js';
import { loadMoneyRules } from '../money-rules/index.js';
import type { MoneyRules, Quote } from '../money-rules/index.js';
import {
  takenStatuses,
  type PayRepository,
  type PayScope,
  type PaymentRequestRow,
  type PaymentRow,
  type ProviderRow,
} from './pay.repository.js';
import { holdMinutesOf } from './provider-windows.js';

/** What pay.repository.ts pageState reads of a request in one statement. */
export type PageState = Awaited<ReturnType<PayRepository['pageState']>>;

/** What the payer is shown, with what the payment path needs to store it. */
export interface PayQuote {
  page: PayPage;
  /** Per invoice, the money rules' quote (null for Account requests). */
  quotes: Quote[];
  amountToPay: Big;
  /** Started, unfinished payments young enough to hold the request. */
  inFlight: PaymentRow[];
  /** The invoices whose amount the payer may change, by transaction id, with their bounds. */
  editable: Map<string, EditBounds>;
  /**
   * The invoices of which the request asks a part (askedPart), by transaction id: that part.
   * Absent: the request asks the whole invoice, as its quote prices it.
   */
  asked: Map<string, Big>;
}

/** What was shown, as stored with the payment (pay_quotes.offered). */
export interface Offered {
  quotedOn: CalendarDate;
  invoices: {
    transactionId: string;
    outstandingAmount: string;
    discount: string;
    offer: {
      id: string;
      source: 'Manual' | 'Generated';
      groupId: string | null;
      type: string;
      description: string | null;
      validUntil: string | null;
    } | null;
    fees: { type: string; amount: string; description: string }[];
    /** The page's plain-words line on why fees apply (absent on quotes stored before it was kept). */
    feesReason?: string | null;
    amountToPay: string;
    /**
     * Set when the payer chose to pay less than in full: what goes to the invoice (no discount,
     * no fee lines). Absent: paid in full, outstandingAmount − discount.
     */
    paidAmount?: string;
  }[];
  discountTotal: string;
  feeTotal: string;
  /** What the payment was started for: the amount the payer chose. */
  total: string;
  /** The total the page offered to pay in full (absent on quotes stored before it was kept). */
  amountOffered?: string;
}

const money = (value: Big | string, currency: string) =>
  Number(new Big(value).toFixed(currencyDecimalPlaces(currency)));

const longDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A plain-words line on why late fees apply, or null when none do. */
export function feesReasonOf(quote: Quote, dueDate: string | null): string | null {
  if (quote.fees.length === 0 || !dueDate) return null;
  const due = longDate.format(new Date(`${dueDate}T00:00:00Z`));
  const interest = quote.fees.some((fee) => fee.type === 'StatutoryInterest');
  const fixed = quote.fees.find((fee) => fee.type === 'FixedSum');
  const symbol = quote.currency === 'GBP' ? '£' : `${quote.currency} `;
  const parts = [
    interest ? 'interest at 8% over the Bank of England base rate' : null,
    fixed ? `a fixed sum of ${symbol}${new Big(fixed.amount).toFixed(0)}` : null,
  ].filter((part): part is string => part !== null);
  return `This invoice was due on ${due}. UK law lets the seller add ${parts.join(' and ')} for late payment.`;
}

/** The stored billing contact's name and e-mail, each null when blank; null when it has none. */
export function billingContactOf(request: PaymentRequestRow): PayPage['billingContact'] {
  const stored = request.billingContact as {
    firstNames?: string | null;
    surname?: string | null;
    emailAddress?: string | null;
  } | null;
  const text = (value: string | null | undefined) => (value && value.trim() !== '' ? value : null);
  const contact = {
    firstNames: text(stored?.firstNames),
    surname: text(stored?.surname),
    emailAddress: text(stored?.emailAddress),
  };
  return contact.firstNames || contact.surname || contact.emailAddress ? contact : null;
}

/**
 * What a Transaction request asks of one invoice today (docs/decisions/107-the-payer-is-asked-what-the-request-asks.md "The payer is asked what
 * the request asks"): the allocation's amount less what this request's payments already put on the
 * invoice. Null: the whole invoice (no amount, or at least what the invoice still owes), priced by
 * its quote with its discount and fees; else that part (never below 0), which like any part pays
 * no discount and no fees (edit-rule.ts).
 */
export function askedPart(
  allocation: { amount: string | null; covered: string | null },
  outstanding: Big,
  decimals: number,
): Big | null {
  if (allocation.amount === null) return null;
  const left = new Big(allocation.amount).minus(allocation.covered ?? 0).round(decimals);
  if (left.gte(outstanding)) return null;
  return left.lt(0) ? new Big(0) : left;
}

/**
 * spec 3 §3 filters of one method configuration: whether it takes the currency, and the amounts it
 * takes (null: no bound on that side); null when it does not take the currency at all.
 */
function methodBounds(
  configuration: { enabled: boolean; filterGroup: { filterConfigurations: Filter[] } | null },
  currency: string,
): { minimum: Big | null; maximum: Big | null } | null {
  if (!configuration.enabled) return null;
  let minimum: Big | null = null;
  let maximum: Big | null = null;
  for (const filter of configuration.filterGroup?.filterConfigurations ?? []) {
    if (filter.isEnabled === false) continue;
    if (filter.filterType === 'Currencies') {
      // An empty allowed list means all currencies (spec 3 §5).
      if ((filter.currencies?.length ?? 0) > 0 && !filter.currencies!.includes(currency))
        return null;
    } else if (filter.filterType === 'PaymentAmount') {
      if (filter.minimumPaymentValue != null) {
        const value = new Big(filter.minimumPaymentValue);
        if (minimum === null || value.gt(minimum)) minimum = value;
      }
      if (filter.maximumPaymentValue != null) {
        const value = new Big(filter.maximumPaymentValue);
        if (maximum === null || value.lt(maximum)) maximum = value;
      }
    }
  }
  return { minimum, maximum };
}

/** The amounts a payment of this request may have: the amount to pay, or a range when the payer may choose. */
export interface AmountRange {
  lowest: Big;
  highest: Big;
}

/**
 * Why a method does not take this amount (its payment amount filter), in words for the payer; null
 * when it does.
 */
export function methodRefusesAmount(
  method: PayMethod,
  amount: Big,
  currency: string,
): string | null {
  const { minimumAmount: minimum, maximumAmount: maximum } = method;
  const below = minimum != null && amount.lt(minimum);
  const above = maximum != null && amount.gt(maximum);
  if (!below && !above) return null;
  const shown = (value: number) =>
    `${currency} ${new Big(value).toFixed(currencyDecimalPlaces(currency))}`;
  const takes =
    minimum != null && maximum != null
      ? `from ${shown(minimum)} to ${shown(maximum)}`
      : minimum != null
        ? `of at least ${shown(minimum)}`
        : `of at most ${shown(maximum!)}`;
  return `${method.displayName} takes payments ${takes}. Choose another way to pay or change the amount.`;
}
interface Filter {
  filterType: string;
  isEnabled?: boolean;
  currencies?: string[];
  minimumPaymentValue?: number | null;
  maximumPaymentValue?: number | null;
}

const groupOf = (methodType: string): PayMethodGroup | null =>
  (payMethodGroups as readonly string[]).includes(methodType)
    ? (methodType as PayMethodGroup)
    : null;

/**
 * The methods the payer may choose: enabled configurations with a method type whose filters match
 * the currency and an amount in `range` (and that the provider supports in this currency), one per
 * configuration, each with the amounts it takes, the default first, then grouped Card / Bank
 * transfer / Direct debit. The page shows those that take the amount the payer chose.
 */
export function methodsOf(rows: ProviderRow[], currency: string, range: AmountRange): PayMethod[] {
  const decimals = currencyDecimalPlaces(currency);
  const methods: (PayMethod & { order: number })[] = [];
  for (const [order, row] of rows.entries()) {
    const type = paymentProviderTypes.find((t) => t.providerName === row.providerName);
    if (!type) continue;
    const supported = (methodType: string) =>
      type.paymentMethodTypesInfo.some(
        (info) =>
          info.paymentMethodType === methodType && info.supportedCurrencies.includes(currency),
      );
    const configurations = (row.paymentMethodConfigurations ?? []) as {
      paymentMethodType: string;
      enabled: boolean;
      filterGroup: { filterConfigurations: Filter[] } | null;
    }[];
    const groups = configurations
      .filter((c) => supported(c.paymentMethodType))
      .flatMap((c) => {
        const group = groupOf(c.paymentMethodType);
        const bounds = methodBounds(c, currency);
        if (group === null || bounds === null) return [];
        // Takes some amount the payer may pay.
        if (bounds.minimum !== null && bounds.minimum.gt(range.highest)) return [];
        if (bounds.maximum !== null && bounds.maximum.lt(range.lowest)) return [];
        if (bounds.minimum !== null && bounds.maximum !== null && bounds.minimum.gt(bounds.maximum))
          return [];
        return [{ group, bounds }];
      })
      .sort((x, y) => payMethodGroups.indexOf(x.group) - payMethodGroups.indexOf(y.group));
    const first = groups[0];
    if (!first) continue;
    // A bound is sent only where the method has one.
    const { minimum, maximum } = first.bounds;
    // spec 3 §2 store-card details: the payer is asked; only a card method stores a card.
    const saveCard =
      first.group === 'Card'
        ? saveCardOfferOf(row.providerName, row.settings as Record<string, unknown>)
        : null;
    methods.push({
      configurationId: row.id,
      providerName: row.providerName,
      displayName: row.name,
      group: first.group,
      isDefault: row.isDefault,
      isTest: row.isTest,
      ...(minimum && { minimumAmount: Number(minimum.round(decimals, Big.roundUp)) }),
      ...(maximum && { maximumAmount: Number(maximum.round(decimals, Big.roundDown)) }),
      ...(saveCard && { saveCard }),
      order,
    });
  }
  methods.sort(
    (x, y) =>
      Number(y.isDefault) - Number(x.isDefault) ||
      payMethodGroups.indexOf(x.group) - payMethodGroups.indexOf(y.group) ||
      x.order - y.order,
  );
  return methods.map(({ order: _order, ...method }) => method);
}

/**
 * The page's state; null when the payer sees the expired page. The link works from validFrom
 * (before it: NotYetOpen) until validUntil (after it: expired); paymentRequiredBy only says the
 * payment is late (docs/decisions/108-links-valid-from-opens-valid-until-closes.md "Links: valid-from opens, valid-until closes").
 */
export function stateOf(request: PaymentRequestRow, now: Date): PayPage['state'] | null {
  const status = request.requestStatus;
  if (status === 'Expired') return null;
  if (status === 'Cancelled') return 'Cancelled';
  // A reservation holds the request (lifecycle.ts): the payer sees it done; once it is cancelled,
  // declined or lapses the request is Open or PartCompleted again and payable.
  if (status === 'Completed' || status === 'Pending') return 'Completed';
  if (request.validUntil && request.validUntil.getTime() < now.getTime()) return null;
  if (request.validFrom && request.validFrom.getTime() > now.getTime()) return 'NotYetOpen';
  return status === 'PartCompleted' ? 'PartCompleted' : 'Open';
}

/** Past its payment-required-by day (the company's today): the page says the payment is overdue. */
export function isOverdue(request: PaymentRequestRow, on: CalendarDate): boolean {
  return request.paymentRequiredBy !== null && request.paymentRequiredBy < on;
}

export function receiptOf(payment: PaymentRow): PayReceipt {
  return {
    paymentId: payment.id,
    reference: payment.ledgerlineReference,
    amount: money(payment.totalAmount, payment.currency),
    currency: payment.currency,
    paidAt: payment.statusDateTime.toISOString(),
    paymentMethodType: payment.paymentMethodType,
    providerName: payment.paymentProviderName,
  };
}

function invoiceOf(
  row: {
    id: string;
    transactionReference: string;
    description: string | null;
    transactionDate: string;
    dueDate: string | null;
  },
  quote: Quote,
  editable: EditBounds | null,
  asked: Big | null,
): PayInvoice {
  const offer = quote.bestOffer;
  const inFull = money(quote.amountToPay, quote.currency);
  if (asked !== null)
    // A part: no discount and no fee lines go with it (edit-rule.ts); paying in full still does.
    return {
      transactionId: row.id,
      reference: row.transactionReference,
      description: row.description,
      transactionDate: row.transactionDate,
      dueDate: row.dueDate,
      outstandingAmount: money(quote.outstandingAmount, quote.currency),
      discount: 0,
      offer: null,
      fees: [],
      feesReason: null,
      amountToPay: money(asked, quote.currency),
      amountInFull: inFull,
      editable: editable && {
        minimumAmount: money(editable.minimumAmount, quote.currency),
        maximumAmount: money(editable.maximumAmount, quote.currency),
        required: editable.required,
      },
    };
  return {
    transactionId: row.id,
    reference: row.transactionReference,
    description: row.description,
    transactionDate: row.transactionDate,
    dueDate: row.dueDate,
    outstandingAmount: money(quote.outstandingAmount, quote.currency),
    discount: money(quote.discount, quote.currency),
    offer: offer && {
      id: offer.id,
      source: offer.source,
      description: offer.description,
      validUntil: offer.validUntil,
    },
    fees: quote.fees.map((fee) => ({ ...fee, amount: money(fee.amount, quote.currency) })),
    feesReason: feesReasonOf(quote, row.dueDate),
    amountToPay: money(quote.amountToPay, quote.currency),
    amountInFull: inFull,
    editable: editable && {
      minimumAmount: money(editable.minimumAmount, quote.currency),
      maximumAmount: money(editable.maximumAmount, quote.currency),
      required: editable.required,
    },
  };
}

type OfferedInvoice = Offered['invoices'][number];

/** One invoice paid in full as its quote prices it: its discount, offer and fee lines. */
export function wholeInvoiceOf(quote: PayQuote, q: Quote): OfferedInvoice {
  const shown = quote.page.invoices.find((i) => i.transactionId === q.transactionId);
  return {
    transactionId: q.transactionId,
    outstandingAmount: q.outstandingAmount,
    discount: q.discount,
    offer: q.bestOffer && {
      id: q.bestOffer.id,
      source: q.bestOffer.source,
      groupId: q.bestOffer.groupId,
      type: q.bestOffer.type,
      description: q.bestOffer.description,
      validUntil: q.bestOffer.validUntil,
    },
    fees: q.fees.map((fee) => ({ ...fee })),
    feesReason: shown?.feesReason ?? feesReasonOf(q, shown?.dueDate ?? null),
    amountToPay: q.amountToPay,
  };
}

/** A part of one invoice: all of it goes to the invoice, no discount, no fee lines (lifecycle-allocations.ts invoiceShareOf). */
export function partInvoiceOf(q: Quote, amount: Big): OfferedInvoice {
  return {
    transactionId: q.transactionId,
    outstandingAmount: q.outstandingAmount,
    discount: '0',
    offer: null,
    fees: [],
    amountToPay: amount.toFixed(),
    paidAmount: amount.toFixed(),
  };
}

/** What the request asks of one invoice, as stored; null when it asks nothing of it now. */
export function askedInvoiceOf(quote: PayQuote, q: Quote): OfferedInvoice | null {
  const part = quote.asked.get(q.transactionId);
  if (part === undefined) return wholeInvoiceOf(quote, q);
  return part.gt(0) ? partInvoiceOf(q, part) : null;
}

/** Totals of stored invoices. */
export function offeredTotals(invoices: OfferedInvoice[]) {
  const sum = (pick: (invoice: OfferedInvoice) => Big) =>
    invoices.reduce((total, invoice) => total.plus(pick(invoice)), new Big(0));
  return {
    discountTotal: sum((invoice) => new Big(invoice.discount)).toFixed(),
    feeTotal: sum((invoice) =>
      invoice.fees.reduce((s, fee) => s.plus(fee.amount), new Big(0)),
    ).toFixed(),
    total: sum((invoice) => new Big(invoice.amountToPay)),
  };
}

/** What was shown, kept with the payment (pay_quotes.offered): what the request asks. */
export function offeredOf(quote: PayQuote): Offered {
  const invoices = quote.quotes.flatMap((q) => askedInvoiceOf(quote, q) ?? []);
  const { discountTotal, feeTotal } = offeredTotals(invoices);
  return {
    quotedOn: quote.page.quotedOn,
    invoices,
    discountTotal,
    feeTotal,
    total: quote.amountToPay.toFixed(),
    amountOffered: quote.amountToPay.toFixed(),
  };
}

/** What the page needs of the company whatever the request: details, methods, money rules. */
export interface CompanyFacts {
  company: Awaited<ReturnType<PayRepository['company']>>;
  /** The configurations the page may offer (offeredConfigurations). */
  configurations: ProviderRow[];
  rules: MoneyRules;
}

/** Whether a configuration can take money on the payer page (pay.service.ts canPay). */
export type CanTake = (configuration: ProviderRow) => boolean;

/**
 * The configurations the payer page may offer, decided in this one place. spec 3 §1: "With no
 * configuration, or with no default, payments cannot be accepted." So none when the company's
 * default is missing, disabled or cannot take money; else every enabled configuration that can
 * take money (`canTake`: its provider has a checkout and the adapter takes it, e.g. a connected
 * Stripe account), the default among them.
 */
export function offeredConfigurations(rows: ProviderRow[], canTake: CanTake): ProviderRow[] {
  const takers = rows.filter((row) => row.enabled && canTake(row));
  return takers.some((row) => row.isDefault) ? takers : [];
}

export async function loadCompanyFacts(
  tx: Executor,
  repository: PayRepository,
  scope: PayScope,
  canTake: CanTake,
): Promise<CompanyFacts> {
  const [company, configurations, rules] = await Promise.all([
    repository.company(tx, scope),
    repository.enabledConfigurations(tx, scope),
    loadMoneyRules(tx, scope),
  ]);
  return { company, configurations: offeredConfigurations(configurations, canTake), rules };
}

/**
 * The payer page of one request, worked out for today. Null: the expired page.
 * `holdMinutes`: how long a started, unfinished payment holds the request.
 */
export async function buildPayQuote(
  tx: Executor,
  repository: PayRepository,
  scope: PayScope,
  request: PaymentRequestRow,
  options: {
    holdMinutes: number;
    /** Whether a configuration can take payments on the page (offeredConfigurations). */
    canPay: CanTake;
    /** The company's facts, when the caller keeps them (the page's read); else read here. */
    companyFacts?: (tx: Executor, scope: PayScope) => Promise<CompanyFacts>;
    /** The request's state as pageState read it (the page's GET; a start keeps its reads). */
    state?: PageState;
    now?: Date;
  },
): Promise<PayQuote | null> {
  const now = options.now ?? new Date();
  const quotedOn = today();
  let state = stateOf(request, now);
  if (state === null) return null;
  const currency = request.currency;
  const isTransaction = request.requestType === 'Transaction';
  const companyFacts = (
    options.companyFacts ??
    ((t: Executor, s: PayScope) => loadCompanyFacts(t, repository, s, options.canPay))
  )(tx, scope);
  let payments: PaymentRow[];
  let rows: Awaited<ReturnType<PayRepository['invoices']>>;
  let editSettings: Awaited<ReturnType<PayRepository['editSettings']>> | null;
  let facts: InvoiceFacts | null = null;
  const { state: read } = options;
  if (read) {
    // The page's read: the request's state in one statement (pay.repository.ts pageState).
    const state = read;
    payments = state.payments;
    rows = isTransaction ? state.invoices : [];
    editSettings = isTransaction ? state.editSettings : null;
    facts = state.facts;
  } else {
    [payments, rows, editSettings] = await Promise.all([
      repository.payments(tx, scope, request.id),
      isTransaction ? repository.invoices(tx, scope, request.id) : Promise.resolve([]),
      isTransaction ? repository.editSettings(tx, scope, request.accountId) : Promise.resolve(null),
    ]);
  }
  const { company, configurations, rules } = await companyFacts;
  const taken = payments.filter((p) => (takenStatuses as readonly string[]).includes(p.status));
  const paid = taken.reduce((sum, p) => sum.plus(p.totalAmount), new Big(0));
  // A started payment holds the request as long as its provider's session lasts (provider-windows.ts).
  const inFlight = payments.filter(
    (p) =>
      p.status === 'Processing' &&
      p.createdOn.getTime() >=
        now.getTime() - holdMinutesOf(p.paymentProviderName, options.holdMinutes) * 60_000,
  );

  let quotes: Quote[] = [];
  let invoices: PayInvoice[] = [];
  let amountToPay: Big;
  /** The most the payer may pay now: what is asked, or more where they may change an amount. */
  let mostPayable: Big;
  const editable = new Map<string, EditBounds>();
  const asked = new Map<string, Big>();
  const open = state === 'Open' || state === 'PartCompleted';
  const decimals = currencyDecimalPlaces(currency);
  if (isTransaction) {
    quotes = facts
      ? priceTransactions(rows, facts, quotedOn, rules)
      : await quoteTransactions(tx, scope, rows, quotedOn, rules);
    for (const [i, row] of rows.entries()) {
      const quote = quotes[i]!;
      const part = askedPart(row.allocation, new Big(quote.outstandingAmount), decimals);
      if (part !== null) asked.set(row.id, part);
      // The payer may change an invoice's amount where the merchant allows it (edit-rule.ts).
      if (
        open &&
        editSettings &&
        new Big(quote.amountToPay).gt(0) &&
        mayEditAmount(editSettings.account, editSettings.companyDefault, row.allocation)
      )
        editable.set(row.id, editBoundsOf(row.allocation, new Big(quote.amountToPay), decimals));
    }
    // An invoice paid in full is shown with nothing left; it is not quoted again.
    invoices = rows.map((row, i) =>
      invoiceOf(row, quotes[i]!, editable.get(row.id) ?? null, asked.get(row.id) ?? null),
    );
    const owing = quotes.filter((q) => new Big(q.outstandingAmount).gt(0));
    quotes = owing;
    const askedOf = (q: Quote) => asked.get(q.transactionId) ?? new Big(q.amountToPay);
    amountToPay = owing.reduce((sum, q) => sum.plus(askedOf(q)), new Big(0));
    mostPayable = owing.reduce((sum, q) => {
      const bounds = editable.get(q.transactionId);
      const most =
        bounds && bounds.maximumAmount.gt(askedOf(q)) ? bounds.maximumAmount : askedOf(q);
      return sum.plus(most);
    }, new Big(0));
  } else {
    amountToPay = new Big(request.amountToPay).minus(paid);
    mostPayable = amountToPay;
  }
  if (amountToPay.lt(0)) amountToPay = new Big(0);
  // Every invoice has what the request asked of it: nothing is left to ask (finish.ts completes
  // Multiple Transaction requests only when their invoices are FullyPaid).
  if (state === 'PartCompleted' && isTransaction && amountToPay.eq(0)) state = 'Completed';
  const sumOf = (pick: (invoice: PayInvoice) => Big | number) =>
    money(
      invoices.reduce((sum, invoice) => sum.plus(pick(invoice)), new Big(0)),
      currency,
    );
  const payable = open && amountToPay.gt(0);
  const partPayment =
    request.requestType === 'Account' && request.usageType === 'Multiple' && payable
      ? {
          minimumAmount: money(new Big(1).div(10 ** currencyDecimalPlaces(currency)), currency),
          maximumAmount: money(amountToPay, currency),
        }
      : null;
  // The payer may choose the amount (part of an Account request, editable invoices): the methods
  // that take any amount up to the whole; the page shows those that take the amount chosen.
  const mayChoose = partPayment !== null || editable.size > 0;
  const range: AmountRange = {
    lowest: mayChoose
      ? new Big(partPayment?.minimumAmount ?? new Big(1).div(10 ** currencyDecimalPlaces(currency)))
      : amountToPay,
    highest: mostPayable.lt(amountToPay) ? amountToPay : mostPayable,
  };
  const methods = payable ? methodsOf(configurations, currency, range) : [];
  const details = company.details;
  const latest = taken[0];
  const page: PayPage = {
    id: request.id,
    state,
    requestType: request.requestType === 'Account' ? 'Account' : 'Transaction',
    usageType: request.usageType === 'Multiple' ? 'Multiple' : 'Single',
    reference: request.customerReference,
    description: request.description,
    customerName: request.customerName,
    billingContact: billingContactOf(request),
    currency,
    quotedOn,
    validFrom: request.validFrom?.toISOString() ?? null,
    validUntil: request.validUntil?.toISOString() ?? null,
    paymentRequiredBy: request.paymentRequiredBy,
    overdue: open && isOverdue(request, quotedOn),
    company: {
      name: details?.name ?? company.datasetName ?? 'Ledgerline',
      logoUrl: company.hasLogo ? `/api/v0/pay/${request.id}/logo` : null,
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
    invoices,
    discountTotal: sumOf((invoice) => invoice.discount),
    feeTotal: sumOf((invoice) =>
      invoice.fees.reduce((sum, fee) => sum.plus(fee.amount), new Big(0)),
    ),
    amountToPay: money(amountToPay, currency),
    paidAmount: money(paid, currency),
    partPayment,
    methods,
    receipt:
      (state === 'Completed' || state === 'PartCompleted') && latest ? receiptOf(latest) : null,
    test: request.test || (methods.length > 0 && methods.every((method) => method.isTest)),
  };
  return { page, quotes, amountToPay, inFlight, editable, asked };
}
