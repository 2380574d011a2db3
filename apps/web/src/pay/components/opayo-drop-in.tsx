import type { OpayoCardBody, PaymentNextStep, PayPaymentStatus } from '@ledgerline/contract';
import { useEffect, useRef, useState } from 'react';
import { PayCallError, payWithOpayoCard } from '../api';
import type { PayBrowser } from '../browser';
import { formatMoney } from '../format';

export type OpayoPiStep = Extract<PaymentNextStep, { kind: 'opayo-pi' }>;

/** What Opayo.js hands `onTokenise`. */
interface TokeniseResult {
  success?: boolean;
  cardIdentifier?: string;
  error?: { errorMessage?: string };
}

/** The part of Opayo.js's drop-in the page uses. */
interface OpayoCheckout {
  form(): unknown;
  tokenise(): unknown;
  destroy?(): void;
}

declare global {
  interface Window {
    sagepayCheckout?: (options: {
      merchantSessionKey: string;
      containerSelector: string;
      onTokenise: (result: TokeniseResult) => void;
    }) => OpayoCheckout;
  }
}

export const dropInMessages = {
  notLoaded: 'The card form could not be loaded. Please check your connection and try again.',
  cardRefused: 'Please check the card details and try again.',
} as const;

const containerId = 'sp-container';

/** What 3-D Secure asks of the payer's browser (the server adds address, agent and Accept). */
function browserFields(): NonNullable<OpayoCardBody['browser']> {
  return {
    language: navigator.language.slice(0, 35),
    colorDepth: window.screen.colorDepth || undefined,
    screenHeight: window.screen.height,
    screenWidth: window.screen.width,
    timeZoneOffset: new Date().getTimezoneOffset(),
  };
}

interface OpayoDropInProps {
  requestId: string;
  paymentId: string;
  step: OpayoPiStep;
  amount: number;
  currency: string;
  browser: PayBrowser;
  /** The server charged the card: the page shows the outcome. */
  onAnswered: (status: PayPaymentStatus) => void;
  onBack: () => void;
}

/**
 * Opayo Pi: Opayo.js (served from Opayo's host; the page's load with `?opayo=` allows exactly the
 * Opayo hosts, apps/api pay-page.ts) draws its card form into our container. The page's Pay
 * button asks it for a card identifier; our server charges it with the payment's own amount, and
 * when the card issuer wants 3-D Secure the page POSTs the payer to the issuer's page, which sends
 * them back to our server and then to this page's outcome.
 */
export function OpayoDropIn(props: OpayoDropInProps) {
  const { requestId, paymentId, step, amount, currency, browser } = props;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const checkoutRef = useRef<OpayoCheckout | null>(null);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const answered = useRef(props.onAnswered);
  answered.current = props.onAnswered;

  useEffect(() => headingRef.current?.focus(), []);

  useEffect(() => {
    let live = true;
    async function tokenised(result: TokeniseResult) {
      if (!live) return;
      if (!result.success || !result.cardIdentifier) {
        setError(result.error?.errorMessage?.trim() || dropInMessages.cardRefused);
        setBusy(false);
        return;
      }
      try {
        const status = await payWithOpayoCard(requestId, paymentId, {
          cardIdentifier: result.cardIdentifier,
          browser: browserFields(),
        });
        if (status.challenge) {
          const { acsUrl, creq, threeDSSessionData } = status.challenge;
          browser.postTo(acsUrl, { creq, threeDSSessionData });
          return;
        }
        answered.current(status);
      } catch (failure) {
        setError(failure instanceof PayCallError ? failure.message : String(failure));
        setBusy(false);
      }
    }
    function mount() {
      if (!live || !window.sagepayCheckout) return;
      checkoutRef.current = window.sagepayCheckout({
        merchantSessionKey: step.merchantSessionKey,
        containerSelector: `#${containerId}`,
        onTokenise: (result) => void tokenised(result),
      });
      checkoutRef.current.form();
      setReady(true);
    }
    let script: HTMLScriptElement | null = null;
    if (window.sagepayCheckout) mount();
    else {
      script = document.createElement('script');
      script.src = step.scriptUrl;
      script.async = true;
      script.addEventListener('load', mount);
      script.addEventListener('error', () => live && setError(dropInMessages.notLoaded));
      document.head.append(script);
    }
    return () => {
      live = false;
      checkoutRef.current?.destroy?.();
      checkoutRef.current = null;
      script?.remove();
    };
  }, [step.scriptUrl, step.merchantSessionKey, requestId, paymentId, browser]);

  function pay() {
    if (!checkoutRef.current) return;
    setError(null);
    setBusy(true);
    checkoutRef.current.tokenise();
  }

  return (
    <section className="card" aria-labelledby="card-heading">
      <h2 id="card-heading" ref={headingRef} tabIndex={-1}>
        Card details
      </h2>
      <p className="muted small">Your card details go straight to Opayo, our card processor.</p>
      <div id={containerId} className="drop-in" />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="primary" onClick={pay} disabled={busy || !ready}>
        {busy ? 'Paying…' : `Pay ${formatMoney(amount, currency)}`}
      </button>
      <button type="button" className="link" onClick={props.onBack} disabled={busy}>
        Choose another way to pay
      </button>
    </section>
  );
}
