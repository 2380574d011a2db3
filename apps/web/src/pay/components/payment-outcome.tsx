import type { PayPaymentStatus } from '@ledgerline/contract';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { getPaymentStatus, PayCallError } from '../api';
import { Receipt } from './receipt';

/** How often the page asks our server (never the provider) while the outcome is not known. */
export const pollTiming = {
  firstDelayMs: 1500,
  /** Each wait is this much longer than the one before, up to `maxDelayMs`. */
  backoff: 1.3,
  maxDelayMs: 6000,
  giveUpAfterMs: 120_000,
};

export const stillWaitingMessage =
  'We have not heard back about your payment yet. It may still go through: do not pay again. ' +
  'Check this page again in a few minutes, or contact the company.';

interface PaymentOutcomeProps {
  requestId: string;
  paymentId: string;
  /** What the provider put on the return URL, passed on to our server. */
  returnQuery: Record<string, string>;
  /** An answer the page already has (the Sandbox's), so the first poll is not needed. */
  initial?: PayPaymentStatus;
  companyName: string;
  onPayAgain: () => void;
  /** The payment succeeded or was reserved: the request's own state may have changed. */
  onSettled: () => void;
}

type Polling =
  | { kind: 'waiting'; error: string | null }
  | { kind: 'gave-up' }
  | { kind: 'known'; status: PayPaymentStatus };

/** After a payment: polls until the outcome is known, then says it (focus on the heading). */
export function PaymentOutcome(props: PaymentOutcomeProps) {
  const { requestId, paymentId, returnQuery, initial, companyName, onPayAgain, onSettled } = props;
  const [polling, setPolling] = useState<Polling>(() =>
    initial && initial.outcome !== 'Waiting'
      ? { kind: 'known', status: initial }
      : { kind: 'waiting', error: null },
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const settledRef = useRef(onSettled);
  settledRef.current = onSettled;
  const queryKey = JSON.stringify(returnQuery);

  useEffect(() => {
    if (polling.kind !== 'waiting') return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const startedAt = Date.now();
    const query = JSON.parse(queryKey) as Record<string, string>;
    const poll = async (delay: number) => {
      let wait = delay;
      try {
        const status = await getPaymentStatus(requestId, paymentId, query);
        if (stopped) return;
        if (status.outcome !== 'Waiting') {
          setPolling({ kind: 'known', status });
          return;
        }
        setPolling({ kind: 'waiting', error: null });
      } catch (error) {
        if (stopped) return;
        // Rate limited: the next poll waits as long as the server asked.
        if (error instanceof PayCallError && error.retryAfterSeconds)
          wait = Math.max(delay, error.retryAfterSeconds * 1000);
        setPolling({
          kind: 'waiting',
          error: error instanceof PayCallError ? error.message : String(error),
        });
      }
      if (Date.now() - startedAt + wait > pollTiming.giveUpAfterMs) {
        setPolling({ kind: 'gave-up' });
        return;
      }
      timer = setTimeout(
        () => void poll(Math.min(delay * pollTiming.backoff, pollTiming.maxDelayMs)),
        wait,
      );
    };
    void poll(pollTiming.firstDelayMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // Polling starts once per payment; its own answers do not restart it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestId, paymentId, queryKey, polling.kind === 'waiting']);

  const known = polling.kind === 'known' ? polling.status : null;
  useEffect(() => {
    if (polling.kind === 'waiting') return;
    headingRef.current?.focus();
    if (known && (known.outcome === 'Succeeded' || known.outcome === 'Reserved'))
      settledRef.current();
  }, [polling.kind, known]);

  return (
    <section className="card outcome" aria-labelledby="outcome-heading">
      {polling.kind === 'waiting' && (
        <>
          <h2 id="outcome-heading">Checking your payment</h2>
          <p role="status" aria-live="polite" className="status-line">
            <span className="spinner" aria-hidden="true" />
            {polling.error
              ? `${polling.error} We will keep trying.`
              : 'Waiting for the payment provider…'}
          </p>
        </>
      )}
      {polling.kind === 'gave-up' && (
        <>
          <h2 id="outcome-heading" ref={headingRef} tabIndex={-1}>
            Payment not confirmed yet
          </h2>
          <p role="status">{stillWaitingMessage}</p>
        </>
      )}
      {known && (
        <KnownOutcome
          status={known}
          companyName={companyName}
          onPayAgain={onPayAgain}
          headingRef={headingRef}
        />
      )}
    </section>
  );
}

function KnownOutcome({
  status,
  companyName,
  onPayAgain,
  headingRef,
}: {
  status: PayPaymentStatus;
  companyName: string;
  onPayAgain: () => void;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const heading = {
    Succeeded: 'Payment successful, thank you',
    Reserved: 'Payment authorised, thank you',
    Failed: 'Payment failed',
    Cancelled: 'Payment cancelled',
    Waiting: 'Checking your payment',
  }[status.outcome];
  return (
    <>
      <h2
        id="outcome-heading"
        ref={headingRef}
        tabIndex={-1}
        className={`outcome-${status.outcome.toLowerCase()}`}
      >
        {heading}
      </h2>
      <div role="status">
        {status.outcome === 'Succeeded' && <p>{companyName} has received your payment.</p>}
        {status.outcome === 'Reserved' && (
          <p>
            Your payment has been authorised. {companyName} will take it from your account shortly.
          </p>
        )}
        {status.outcome === 'Failed' && (
          <p>{status.message ?? 'Your payment did not go through. No money was taken.'}</p>
        )}
        {status.outcome === 'Cancelled' && <p>You cancelled the payment. No money was taken.</p>}
      </div>
      {status.receipt && <Receipt receipt={status.receipt} />}
      {(status.outcome === 'Failed' || status.outcome === 'Cancelled') && (
        <button type="button" className="primary" onClick={onPayAgain}>
          Pay again
        </button>
      )}
    </>
  );
}
