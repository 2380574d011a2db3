import type { PaymentNextStep, PayPaymentStatus } from '@ledgerline/contract';
import { useEffect, useRef, useState } from 'react';
import { PayCallError, payWithTranSafeTicket } from '../api';
import { formatMoney } from '../format';

export type TranSafeStep = Extract<PaymentNextStep, { kind: 'transafe-frame' }>;

/** What the PaymentFrame answers the page's `submitPaymentData` with. */
interface FrameAnswer {
  code?: unknown;
  ticket?: unknown;
  verbiage?: unknown;
  monetra_resp_hmacsha256?: unknown;
}

export const frameMessages = {
  notAnswered: 'The card form did not answer. Please check your connection and try again.',
  cardRefused: 'Please check the card details and try again.',
} as const;

/** How long the page waits for the frame's ticket before saying so. */
export const frameTiming = { answerTimeoutMs: 30_000 };

function answerOf(data: unknown): FrameAnswer | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return typeof value === 'object' && value !== null && 'code' in value
    ? (value as FrameAnswer)
    : null;
}

/** Only the frame's `data-hmac-*` fields become attributes of the iframe. */
const frameAttributes = (attributes: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(attributes).filter(([name]) => /^data-hmac-[a-z0-9-]+$/.test(name)),
  );

interface TranSafeFrameProps {
  requestId: string;
  paymentId: string;
  step: TranSafeStep;
  amount: number;
  currency: string;
  /** The server charged the ticket: the page shows the outcome. */
  onAnswered: (status: PayPaymentStatus) => void;
  onBack: () => void;
}

/**
 * TranSafe's PaymentFrame: the card fields live on TranSafe's host in an iframe (the page's load
 * with `?frame=` allows exactly the TranSafe hosts as frame sources, apps/api pay-page.ts). The
 * page's Pay button asks the frame for a card ticket (`submitPaymentData`); the frame answers by
 * postMessage, accepted only from TranSafe's origin and this iframe; the ticket goes to our server,
 * which charges the payment's own amount and answers the outcome.
 */
export function TranSafeFrame(props: TranSafeFrameProps) {
  const { requestId, paymentId, step, amount, currency, onAnswered, onBack } = props;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const waiting = useRef<ReturnType<typeof setTimeout> | null>(null);
  const answered = useRef(onAnswered);
  answered.current = onAnswered;

  useEffect(() => headingRef.current?.focus(), []);

  useEffect(() => {
    const stopWaiting = () => {
      if (waiting.current) clearTimeout(waiting.current);
      waiting.current = null;
    };
    async function receive(event: MessageEvent) {
      if (event.origin !== step.frameOrigin) return;
      if (!frameRef.current || event.source !== frameRef.current.contentWindow) return;
      const answer = answerOf(event.data);
      if (!answer || !waiting.current) return;
      stopWaiting();
      if (
        answer.code !== 'AUTH' ||
        typeof answer.ticket !== 'string' ||
        typeof answer.monetra_resp_hmacsha256 !== 'string'
      ) {
        setError(
          typeof answer.verbiage === 'string' && answer.verbiage.trim() !== ''
            ? answer.verbiage
            : frameMessages.cardRefused,
        );
        setBusy(false);
        return;
      }
      try {
        answered.current(
          await payWithTranSafeTicket(requestId, paymentId, {
            ticket: answer.ticket,
            ticketHmac: answer.monetra_resp_hmacsha256,
          }),
        );
      } catch (failure) {
        setError(failure instanceof PayCallError ? failure.message : String(failure));
        setBusy(false);
      }
    }
    const listener = (event: MessageEvent) => void receive(event);
    window.addEventListener('message', listener);
    return () => {
      window.removeEventListener('message', listener);
      stopWaiting();
    };
  }, [step.frameOrigin, requestId, paymentId]);

  function pay() {
    const frame = frameRef.current?.contentWindow;
    if (!frame) return;
    setError(null);
    setBusy(true);
    waiting.current = setTimeout(() => {
      waiting.current = null;
      setError(frameMessages.notAnswered);
      setBusy(false);
    }, frameTiming.answerTimeoutMs);
    frame.postMessage(JSON.stringify({ type: 'submitPaymentData' }), step.frameOrigin);
  }

  return (
    <section className="card" aria-labelledby="card-heading">
      <h2 id="card-heading" ref={headingRef} tabIndex={-1}>
        Card details
      </h2>
      <p className="muted small">Your card details go straight to TranSafe, our card processor.</p>
      <iframe
        ref={frameRef}
        className="card-frame"
        title="Card details (TranSafe secure form)"
        src={step.frameUrl}
        {...frameAttributes(step.attributes)}
      />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="primary" onClick={pay} disabled={busy}>
        {busy ? 'Paying…' : `Pay ${formatMoney(amount, currency)}`}
      </button>
      <button type="button" className="link" onClick={onBack} disabled={busy}>
        Choose another way to pay
      </button>
    </section>
  );
}
