import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Big from 'big.js';
import fc from 'fast-check';
import { sandboxCards } from '@ledgerline/contract';
import { createReservations } from '../payment-transactions/payment-transactions.reservations.js';
import { createPaymentTransactionsRepository } from '../payment-transactions/payment-transactions.repository.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { day, insertAccount, insertInvoice, insertRequest } from '../../../test/fixtures/pay.js';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { providerNotifications } from '../../db/schema-pay.js';
import {
  sandboxNotificationSecret,
  signSandboxNotification,
} from '../../providers/sandbox/sandbox.checkout.js';
import { waitFor } from '../../../test/wait.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

// The proof of the lifecycle (features/pay/lifecycle.ts): random sequences of moves,
// driven through the HTTP API (the payer page's Sandbox card form, staff capture and cancel) and
// the reservation expiry job, against a small reference model. After every step: each invoice's
// allocated amount equals the money its payments actually hold for it, paid status and request
// status match the model, and no amount is negative or above what was paid.

let ctx: TestContext;
let admin: SignedIn;
let call: ReturnType<typeof caller>;
let accountId: string;
let sandboxId: string;
let reservations: ReturnType<typeof createReservations>;

beforeAll(async () => {
  // No payer-page hold, so a second payment of a request can be started while the first is open.
  ctx = await buildTestApp({
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
    PAY_ATTEMPT_HOLD_MINUTES: '0',
    SANDBOX_NOTIFICATION_KEY: notificationKey,
  });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Lifecycle Model Ltd' });
  await makeDemoCompany(ctx, admin);
  accountId = await insertAccount(ctx, admin, { name: 'Model Customer Ltd' });
  const provider = await call(admin, 'POST', 'providers', {
    providerName: 'Sandbox',
    name: 'Card (test)',
    enabled: true,
    displayPriority: 1,
    isTest: true,
  });
  expect(provider.statusCode, provider.body).toBe(201);
  sandboxId = provider.json().id;
  reservations = createReservations({
    database: ctx.database,
    repository: createPaymentTransactionsRepository(),
    log: ctx.app.log,
  });
}, 120_000);
afterAll(() => ctx.close());

// ---------------------------------------------------------------------------------------------
// The reference model: two invoices (the first due first), one request over both.

const invoiceAmounts = [new Big('100.00'), new Big('60.50')];

interface ModelPayment {
  id: string;
  status: string;
  total: Big;
  /** Per invoice: Allocated money, Provisional (reserved) money. */
  allocated: Big[];
  provisional: Big[];
  /** Refunds made. */
  refunded: Big;
  /** Per invoice: money given back from it (refunds, lost disputes): what a won dispute may restore. */
  reversed: Big[];
  /** The open or last dispute: its reference and what its loss took. */
  dispute: { reference: string; lost: Big } | null;
  disputes: number;
}
interface Model {
  usage: 'Single' | 'Multiple';
  payments: ModelPayment[];
}

const zero = () => invoiceAmounts.map(() => new Big(0));
const sum = (values: Big[]) => values.reduce((s, v) => s.plus(v), new Big(0));
const min = (...values: Big[]) => values.reduce((m, v) => (v.lt(m) ? v : m));
const allocatedTo = (m: Model, i: number) => sum(m.payments.map((p) => p.allocated[i]!));
const provisionalTo = (m: Model, i: number) => sum(m.payments.map((p) => p.provisional[i]!));
const roomOf = (m: Model, i: number) => invoiceAmounts[i]!.minus(allocatedTo(m, i));
const paidStatus = (m: Model, i: number) => {
  const a = allocatedTo(m, i);
  return a.gte(invoiceAmounts[i]!) ? 'FullyPaid' : a.gt(0) ? 'PartPaid' : 'Unpaid';
};

function requestStatus(m: Model): string {
  const held = sum(invoiceAmounts.map((_, i) => allocatedTo(m, i)));
  const reserved = sum(invoiceAmounts.map((_, i) => provisionalTo(m, i)));
  if (m.usage === 'Single') {
    // A Paid payment holds it, or money still allocated (a Disputed payment's, while the dispute
    // is open or lost in part: lifecycle.ts requestStatusOf).
    if (m.payments.some((p) => p.status === 'Paid') || held.gt(0)) return 'Completed';
    return m.payments.some((p) => p.status === 'Pending') ? 'Pending' : 'Open';
  }
  if (invoiceAmounts.every((_, i) => allocatedTo(m, i).gte(invoiceAmounts[i]!))) return 'Completed';
  if (
    reserved.gt(0) &&
    invoiceAmounts.every((_, i) =>
      allocatedTo(m, i).plus(provisionalTo(m, i)).gte(invoiceAmounts[i]!),
    )
  )
    return 'Pending';
  return held.gt(0) || reserved.gt(0) ? 'PartCompleted' : 'Open';
}

/** What the payer page offers now: each invoice's outstanding amount; null when it takes no payment. */
function quoteOf(m: Model): Big[] | null {
  const status = requestStatus(m);
  const quote = invoiceAmounts.map((_, i) => roomOf(m, i));
  if (status !== 'Open' && status !== 'PartCompleted') return null;
  return sum(quote).gt(0) ? quote : null;
}

/** A settled payment of a quote: each invoice up to what it still owes now. */
function settled(m: Model, id: string, quote: Big[], reserve: boolean): ModelPayment {
  const held = m.usage === 'Single' && ['Completed', 'Pending'].includes(requestStatus(m));
  const payment: ModelPayment = {
    id,
    status: held ? 'Duplicated' : reserve ? 'Pending' : 'Paid',
    total: sum(quote),
    allocated: zero(),
    provisional: zero(),
    refunded: new Big(0),
    reversed: zero(),
    dispute: null,
    disputes: 0,
  };
  if (!held)
    quote.forEach((wanted, i) => {
      const amount = min(wanted, roomOf(m, i)).gt(0) ? min(wanted, roomOf(m, i)) : new Big(0);
      if (reserve) payment.provisional[i] = amount;
      else payment.allocated[i] = amount;
    });
  return payment;
}

/** A capture: Provisional money Allocated up to the amount, the invoice due first first; the rest released. */
function capture(m: Model, payment: ModelPayment, amount: Big) {
  let left = amount;
  invoiceAmounts.forEach((_, i) => {
    const room = roomOf(m, i);
    const kept = min(payment.provisional[i]!, left, room.gt(0) ? room : new Big(0));
    payment.allocated[i] = kept;
    payment.provisional[i] = new Big(0);
    left = left.minus(kept);
  });
  payment.status = 'Paid';
  payment.total = amount;
}

/** Money given back from the payment's allocations, the invoice due last first (lifecycle reverse). */
function reverse(payment: ModelPayment, amount: Big | null): Big {
  let left = amount ?? sum(payment.allocated);
  let taken = new Big(0);
  for (let i = invoiceAmounts.length - 1; i >= 0; i--) {
    const take = min(payment.allocated[i]!, left);
    payment.allocated[i] = payment.allocated[i]!.minus(take);
    payment.reversed[i] = payment.reversed[i]!.plus(take);
    left = left.minus(take);
    taken = taken.plus(take);
  }
  return taken;
}

/** Reversed money allocated again, the invoice due first first, never past what it owes (lifecycle restore). */
function restore(m: Model, payment: ModelPayment, amount: Big) {
  let left = amount;
  invoiceAmounts.forEach((_, i) => {
    const room = roomOf(m, i);
    const given = min(payment.reversed[i]!, left, room.gt(0) ? room : new Big(0));
    payment.allocated[i] = payment.allocated[i]!.plus(given);
    payment.reversed[i] = payment.reversed[i]!.minus(given);
    left = left.minus(given);
  });
}

function release(payment: ModelPayment) {
  payment.status = 'Cancelled';
  payment.provisional = zero();
}

// ---------------------------------------------------------------------------------------------
// The moves, with the refunds helper's refund (whole, part) and dispute (opened, lost, won)
// moves and the model's reverse and restore.

type Move =
  | { kind: 'pay' }
  | { kind: 'reserve' }
  | { kind: 'duplicate' }
  | { kind: 'capture'; which: number; part: number | null }
  | { kind: 'cancel'; which: number }
  | { kind: 'expire' }
  // The refunds helper: staff refunds, whole or part, and a dispute's stages.
  | { kind: 'refund'; which: number; part: number | null }
  | { kind: 'dispute'; which: number; stage: 'Opened' | 'Lost' | 'Won' };

const moveArb: fc.Arbitrary<Move> = fc.oneof(
  fc.constant({ kind: 'pay' as const }),
  fc.constant({ kind: 'reserve' as const }),
  fc.constant({ kind: 'duplicate' as const }),
  fc.record({
    kind: fc.constant('capture' as const),
    which: fc.nat(3),
    part: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }),
  }),
  fc.record({ kind: fc.constant('cancel' as const), which: fc.nat(3) }),
  fc.constant({ kind: 'expire' as const }),
  fc.record({
    kind: fc.constant('refund' as const),
    which: fc.nat(3),
    part: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }),
  }),
  fc.record({
    kind: fc.constant('dispute' as const),
    which: fc.nat(3),
    stage: fc.constantFrom('Opened' as const, 'Lost' as const, 'Won' as const),
  }),
);

const notificationKey = 'lifecycle-model-sandbox-notification-key';

const pay = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/pay/${url}`, ...(payload ? { payload } : {}) });
const card = (cardNumber: string) => ({
  cardholderName: 'Pat Payer',
  cardNumber,
  expiry: '12/30',
  cvc: '123',
});

interface World {
  requestId: string;
  invoices: string[];
  model: Model;
}

async function start(world: World): Promise<string | null> {
  const started = await pay('POST', `${world.requestId}/payments`, { configurationId: sandboxId });
  if (quoteOf(world.model) === null) {
    expect(started.statusCode, `start refused: ${started.body}`).not.toBe(201);
    return null;
  }
  expect(started.statusCode, started.body).toBe(201);
  return started.json().paymentId as string;
}

async function settle(world: World, paymentId: string, quote: Big[], reserve: boolean) {
  const expected = settled(world.model, paymentId, quote, reserve);
  const answer = await pay(
    'POST',
    `${world.requestId}/payments/${paymentId}/sandbox`,
    card(reserve ? sandboxCards.reserved : sandboxCards.succeeds),
  );
  expect(answer.json().status, answer.body).toBe(expected.status);
  world.model.payments.push(expected);
}

async function runMove(world: World, move: Move) {
  const { model } = world;
  const pending = model.payments.filter((p) => p.status === 'Pending');
  switch (move.kind) {
    case 'pay':
    case 'reserve': {
      const quote = quoteOf(model);
      const id = await start(world);
      if (id && quote) await settle(world, id, quote, move.kind === 'reserve');
      return;
    }
    case 'duplicate': {
      // Two payments started on the same page, then both settle: the second of a Single request
      // is Duplicated and allocated to nothing; of a Multiple one it takes what is left.
      const quote = quoteOf(model);
      const first = await start(world);
      if (!first || !quote) return;
      const second = await start(world);
      await settle(world, first, quote, false);
      await settle(world, second!, quote, false);
      return;
    }
    case 'capture': {
      const payment = pending[move.which % Math.max(pending.length, 1)];
      if (!payment) return;
      const whole = move.part === null || payment.total.lt('0.02');
      const part = payment.total
        .times(move.part ?? 100)
        .div(100)
        .round(2, Big.roundDown);
      const amount = whole ? payment.total : part.lt('0.01') ? new Big('0.01') : part;
      const answer = await call(
        admin,
        'POST',
        `payment-transactions/${payment.id}/pending/capture`,
        {
          amountToCapture: Number(amount.toFixed(2)),
        },
      );
      expect(answer.json(), answer.body).toMatchObject({ isError: false });
      capture(model, payment, amount);
      return;
    }
    case 'cancel': {
      const payment = pending[move.which % Math.max(pending.length, 1)];
      if (!payment) return;
      const answer = await call(
        admin,
        'POST',
        `payment-transactions/${payment.id}/pending/cancel`,
        {
          note: 'Model cancel',
        },
      );
      expect(answer.json(), answer.body).toMatchObject({ isError: false });
      release(payment);
      return;
    }
    case 'expire': {
      // Past every provider's authorisation window: every reservation lapses.
      await reservations.expire(new Date(Date.now() + 40 * 86_400_000));
      for (const payment of model.payments.filter((p) => p.status === 'Pending')) release(payment);
      return;
    }
    case 'refund': {
      const refundable = model.payments.filter((p) => ['Paid', 'Duplicated'].includes(p.status));
      const payment = refundable[move.which % Math.max(refundable.length, 1)];
      if (!payment) return;
      const left = payment.total.minus(payment.refunded);
      let amount =
        move.part === null ? left : left.times(move.part).div(100).round(2, Big.roundDown);
      // The Sandbox declines .99 and leaves .98 pending: the model refunds what it settles at once.
      while (/\.9[89]$/.test(amount.toFixed(2))) amount = amount.minus('0.02');
      if (amount.lt('0.01')) return;
      const answer = await call(admin, 'POST', `payment-transactions/${payment.id}/refund`, {
        amount: Number(amount.toFixed(2)),
      });
      expect(answer.json(), answer.body).toMatchObject({
        isError: false,
        refund: { status: 'Refunded' },
      });
      const whole = amount.gte(left);
      if (payment.status === 'Paid') reverse(payment, whole ? null : amount);
      payment.refunded = payment.refunded.plus(amount);
      if (whole) payment.status = 'Refunded';
      return;
    }
    case 'dispute': {
      const candidates = model.payments.filter((p) =>
        move.stage === 'Opened'
          ? p.status === 'Paid'
          : move.stage === 'Lost'
            ? ['Paid', 'Disputed'].includes(p.status) && !(p.dispute && p.dispute.lost.gt(0))
            : p.status === 'Disputed',
      );
      const payment = candidates[move.which % Math.max(candidates.length, 1)];
      if (!payment) return;
      if (!payment.dispute || payment.status === 'Paid')
        payment.dispute = {
          reference: `dp_${payment.id.slice(0, 8)}_${++payment.disputes}`,
          lost: new Big(0),
        };
      const dispute = payment.dispute;
      await notifyDispute(payment.id, { reference: dispute.reference, stage: move.stage });
      if (move.stage === 'Lost') dispute.lost = reverse(payment, payment.total);
      if (move.stage === 'Won') {
        restore(model, payment, dispute.lost);
        dispute.lost = new Big(0);
      }
      payment.status = move.stage === 'Won' ? 'Paid' : 'Disputed';
      return;
    }
  }
}

/** A signed Sandbox notification of a dispute, settled before it returns. */
async function notifyDispute(paymentId: string, dispute: { reference: string; stage: string }) {
  const id = `evt_${randomUUID()}`;
  const raw = JSON.stringify({ id, type: 'dispute.updated', data: { paymentId, dispute } });
  const secret = sandboxNotificationSecret(notificationKey, sandboxId)!;
  const answer = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/webhooks/sandbox/${sandboxId}`,
    headers: {
      'content-type': 'application/json',
      'sandbox-signature': signSandboxNotification(secret, raw),
    },
    payload: raw,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  await waitFor(async () => {
    const [row] = await ctx.database.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.eventId, id));
    return row?.processedAt ? row : undefined;
  });
}

const money = (value: number | string | Big) => new Big(value).toFixed(2);

interface AllocationJson {
  transactionId: string | null;
  status: string;
  allocatedAmount: number;
}

async function check(world: World, history: Move[]) {
  const { model } = world;
  const why = JSON.stringify(history);
  const held = invoiceAmounts.map(() => new Big(0));
  for (const expected of model.payments) {
    const detail = (await call(admin, 'GET', `payment-transactions/${expected.id}`)).json() as {
      status: string;
      totalAmount: number;
      paymentAllocations: AllocationJson[];
    };
    expect(detail.status, why).toBe(expected.status);
    const allocations = detail.paymentAllocations;
    for (const allocation of allocations)
      expect(allocation.allocatedAmount, why).toBeGreaterThanOrEqual(0);
    const allocatedSum = sum(
      allocations.filter((a) => a.status === 'Allocated').map((a) => new Big(a.allocatedAmount)),
    );
    expect(allocatedSum.lte(detail.totalAmount), why).toBe(true);
    world.invoices.forEach((invoiceId, i) => {
      const of = (status: string) =>
        money(
          sum(
            allocations
              .filter((a) => a.transactionId === invoiceId && a.status === status)
              .map((a) => new Big(a.allocatedAmount)),
          ),
        );
      expect([of('Allocated'), of('Provisional')], why).toEqual([
        money(expected.allocated[i]!),
        money(expected.provisional[i]!),
      ]);
      held[i] = held[i]!.plus(of('Allocated'));
    });
  }
  for (const [i, invoiceId] of world.invoices.entries()) {
    const invoice = (await call(admin, 'GET', `transactions/${invoiceId}`)).json();
    // The invoice's allocated amount is the money its payments actually hold for it.
    expect(money(invoice.allocatedAmount), why).toBe(money(held[i]!));
    expect(money(invoice.allocatedAmount), why).toBe(money(allocatedTo(model, i)));
    expect(new Big(invoice.allocatedAmount).lte(invoiceAmounts[i]!), why).toBe(true);
    expect(invoice.paidStatus, why).toBe(paidStatus(model, i));
  }
  const request = (await call(admin, 'GET', `payment-requests/${world.requestId}`)).json();
  expect(request.requestStatus, why).toBe(requestStatus(model));
  // The payer page reads the request's status: payable again once a reservation is undone.
  const page = (await pay('GET', world.requestId)).json();
  const status = requestStatus(model);
  expect(page.state, why).toBe(status === 'Pending' ? 'Completed' : status);
}

describe('the payment lifecycle against its model', () => {
  it('keeps the books equal to the money over random pay, reserve, capture, cancel, expire, duplicate, refund (whole and part) and dispute (opened, lost, won) sequences', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('Single' as const, 'Multiple' as const),
        fc.array(moveArb, { minLength: 1, maxLength: 6 }),
        async (usage, moves) => {
          const invoices = [
            await insertInvoice(ctx, admin, accountId, {
              amount: invoiceAmounts[0]!.toFixed(2),
              transactionDate: day(-5),
              dueDate: day(10),
            }),
            await insertInvoice(ctx, admin, accountId, {
              amount: invoiceAmounts[1]!.toFixed(2),
              transactionDate: day(-4),
              dueDate: day(20),
            }),
          ];
          const requestId = await insertRequest(
            ctx,
            admin,
            { accountId, usageType: usage, amountToPay: sum(invoiceAmounts).toFixed(2) },
            invoices,
          );
          const world: World = { requestId, invoices, model: { usage, payments: [] } };
          const history: Move[] = [];
          for (const move of moves) {
            history.push(move);
            await runMove(world, move);
            await check(world, history);
          }
        },
      ),
      { numRuns: 15, endOnFailure: true },
    );
  }, 900_000);
});
