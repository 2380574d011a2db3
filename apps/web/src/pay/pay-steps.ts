import type { PayPaymentStatus, StartedPayment } from '@ledgerline/contract';
import type { PayBrowser } from './browser';
import type { OpayoPiStep } from './components/opayo-drop-in';
import type { OppwaStep } from './components/oppwa-widget';
import type { TranSafeStep } from './components/transafe-frame';

/** What the payer is doing now, beyond reading the request. */
export type Step =
  | { kind: 'choose' }
  | { kind: 'sandbox'; payment: StartedPayment }
  | { kind: 'oppwa'; paymentId: string; widget: OppwaStep | null }
  | { kind: 'transafe'; paymentId: string; frame: StoredFrame | null }
  | { kind: 'opayo'; paymentId: string; dropIn: StoredDropIn | null }
  | {
      kind: 'outcome';
      paymentId: string;
      returnQuery: Record<string, string>;
      initial?: PayPaymentStatus;
    };

const oppwaStorageKey = (paymentId: string) => `ledgerline.pay.oppwa.${paymentId}`;
const tranSafeStorageKey = (paymentId: string) => `ledgerline.pay.transafe.${paymentId}`;
const opayoStorageKey = (paymentId: string) => `ledgerline.pay.opayo.${paymentId}`;

/** What the PaymentFrame's load needs: the frame and the amount the Pay button shows. */
export interface StoredFrame {
  next: TranSafeStep;
  amount: number;
  currency: string;
}

/** What the Opayo drop-in's load needs: the session key and the amount the Pay button shows. */
export interface StoredDropIn {
  next: OpayoPiStep;
  amount: number;
  currency: string;
}

function storedDropIn(browser: PayBrowser, paymentId: string): StoredDropIn | null {
  try {
    const stored = JSON.parse(
      browser.storage.getItem(opayoStorageKey(paymentId)) ?? 'null',
    ) as StoredDropIn | null;
    return stored?.next?.kind === 'opayo-pi' ? stored : null;
  } catch {
    return null;
  }
}

function storedFrame(browser: PayBrowser, paymentId: string): StoredFrame | null {
  try {
    const stored = JSON.parse(
      browser.storage.getItem(tranSafeStorageKey(paymentId)) ?? 'null',
    ) as StoredFrame | null;
    return stored?.next?.kind === 'transafe-frame' ? stored : null;
  } catch {
    return null;
  }
}

/** The step the page opens on, from its query (a provider's return, or a card form's reload). */
export function firstStep(query: Record<string, string>, browser: PayBrowser): Step {
  const { payment, checkout, frame, opayo, ...returnQuery } = query;
  if (payment) {
    // Back from the provider: an OPPWA step kept for the widget's load is done with.
    browser.storage.removeItem(oppwaStorageKey(payment));
    browser.storage.removeItem(tranSafeStorageKey(payment));
    browser.storage.removeItem(opayoStorageKey(payment));
    return { kind: 'outcome', paymentId: payment, returnQuery };
  }
  if (frame) return { kind: 'transafe', paymentId: frame, frame: storedFrame(browser, frame) };
  if (opayo) return { kind: 'opayo', paymentId: opayo, dropIn: storedDropIn(browser, opayo) };
  if (checkout) {
    const stored = browser.storage.getItem(oppwaStorageKey(checkout));
    const widget = stored ? (JSON.parse(stored) as OppwaStep) : null;
    return { kind: 'oppwa', paymentId: checkout, widget: widget?.kind === 'oppwa' ? widget : null };
  }
  return { kind: 'choose' };
}

/**
 * Where a started payment goes next: the sandbox card form on this page, the provider's page, or
 * this page loaded again as the provider's card form (kept in storage for that load).
 */
export function goToStartedPayment(
  browser: PayBrowser,
  requestId: string | null,
  payment: StartedPayment,
  setStep: (step: Step) => void,
) {
  const { next } = payment;
  const reload = (param: string) =>
    browser.goTo(
      `/pay/${encodeURIComponent(requestId ?? '')}?${param}=${encodeURIComponent(payment.paymentId)}`,
    );
  if (next.kind === 'sandbox') setStep({ kind: 'sandbox', payment });
  else if (next.kind === 'redirect') browser.goTo(next.url);
  else if (next.kind === 'post') browser.postTo(next.url, next.fields);
  else if (next.kind === 'transafe-frame') {
    // The frame's page must be served with the TranSafe hosts allowed as frames: load it again.
    const stored: StoredFrame = { next, amount: payment.amount, currency: payment.currency };
    browser.storage.setItem(tranSafeStorageKey(payment.paymentId), JSON.stringify(stored));
    reload('frame');
  } else if (next.kind === 'opayo-pi') {
    // Opayo.js must be allowed by the page's policy: load it again as the drop-in's page.
    const stored: StoredDropIn = { next, amount: payment.amount, currency: payment.currency };
    browser.storage.setItem(opayoStorageKey(payment.paymentId), JSON.stringify(stored));
    reload('opayo');
  } else {
    // The widget's page must be served with the OPPWA hosts allowed: load it again.
    browser.storage.setItem(oppwaStorageKey(payment.paymentId), JSON.stringify(next));
    reload('checkout');
  }
}
