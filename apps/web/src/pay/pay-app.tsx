import type {
  PayPage,
  PayPageAnswer,
  PayPaymentStatus,
  StartedPayment,
} from '@ledgerline/contract';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { getPayPage, PayCallError } from './api';
import type { PayBrowser } from './browser';
import { CompanyContact, contactEnding } from './components/company-contact';
import { OpayoDropIn, type OpayoPiStep } from './components/opayo-drop-in';
import { OppwaWidget, type OppwaStep } from './components/oppwa-widget';
import { PayForm } from './components/pay-form';
import { PaymentOutcome } from './components/payment-outcome';
import { Receipt } from './components/receipt';
import { RequestSummary } from './components/request-summary';
import { SandboxCardForm } from './components/sandbox-card-form';
import { TranSafeFrame, type TranSafeStep } from './components/transafe-frame';
import { formatDate, formatDateTime, formatMoney } from './format';

interface PayAppProps {
  requestId: string | null;
  /**
   * The page's query: `payment` after a provider sent the payer back, `checkout` for OPPWA,
   * `frame` for the TranSafe PaymentFrame, `opayo` for the Opayo Pi drop-in.
   */
  query: Record<string, string>;
  browser: PayBrowser;
  /**
   * The answer the server wrote into the page with its first screen (issue 25, pay/main.tsx):
   * shown at once, and not asked for again.
   */
  firstAnswer?: PayPageAnswer;
}

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; answer: PayPageAnswer };

/** What the payer is doing now, beyond reading the request. */
type Step =
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
interface StoredFrame {
  next: TranSafeStep;
  amount: number;
  currency: string;
}

/** What the Opayo drop-in's load needs: the session key and the amount the Pay button shows. */
interface StoredDropIn {
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

function firstStep(query: Record<string, string>, browser: PayBrowser): Step {
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

export function PayApp({ requestId, query, browser, firstAnswer }: PayAppProps) {
  const [loaded, setLoaded] = useState<Loaded>(
    firstAnswer ? { kind: 'ready', answer: firstAnswer } : { kind: 'loading' },
  );
  const answered = useRef(firstAnswer !== undefined);
  const [step, setStep] = useState<Step>(() => firstStep(query, browser));
  const headingRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    if (!requestId) {
      setLoaded({ kind: 'ready', answer: { state: 'Expired' } });
      return;
    }
    try {
      setLoaded({ kind: 'ready', answer: await getPayPage(requestId) });
    } catch (error) {
      // A link cut short or mistyped (an id the API refuses or does not route) looks like any
      // link that leads nowhere: expired.
      if (error instanceof PayCallError && (error.status === 400 || error.status === 404)) {
        setLoaded({ kind: 'ready', answer: { state: 'Expired' } });
        return;
      }
      setLoaded({
        kind: 'failed',
        message: error instanceof PayCallError ? error.message : String(error),
      });
    }
  }, [requestId]);

  useEffect(() => {
    // The first answer came with the page: the first load has nothing to ask.
    if (answered.current) {
      answered.current = false;
      return;
    }
    void load();
  }, [load]);

  const answer = loaded.kind === 'ready' ? loaded.answer : null;
  useEffect(() => {
    if (answer)
      document.title =
        answer.state === 'Expired' ? 'Payment link expired' : `Pay ${answer.company.name}`;
  }, [answer]);

  const chooseAgain = useCallback(() => {
    browser.replaceQuery({});
    setStep({ kind: 'choose' });
    void load();
  }, [browser, load]);

  const started = (payment: StartedPayment) => {
    const { next } = payment;
    if (next.kind === 'sandbox') setStep({ kind: 'sandbox', payment });
    else if (next.kind === 'redirect') browser.goTo(next.url);
    else if (next.kind === 'post') browser.postTo(next.url, next.fields);
    else if (next.kind === 'transafe-frame') {
      // The frame's page must be served with the TranSafe hosts allowed as frames: load it again.
      const stored: StoredFrame = { next, amount: payment.amount, currency: payment.currency };
      browser.storage.setItem(tranSafeStorageKey(payment.paymentId), JSON.stringify(stored));
      browser.goTo(
        `/pay/${encodeURIComponent(requestId ?? '')}?frame=${encodeURIComponent(payment.paymentId)}`,
      );
    } else if (next.kind === 'opayo-pi') {
      // Opayo.js must be allowed by the page's policy: load it again as the drop-in's page.
      const stored: StoredDropIn = { next, amount: payment.amount, currency: payment.currency };
      browser.storage.setItem(opayoStorageKey(payment.paymentId), JSON.stringify(stored));
      browser.goTo(
        `/pay/${encodeURIComponent(requestId ?? '')}?opayo=${encodeURIComponent(payment.paymentId)}`,
      );
    } else {
      // The widget's page must be served with the OPPWA hosts allowed: load it again.
      browser.storage.setItem(oppwaStorageKey(payment.paymentId), JSON.stringify(next));
      browser.goTo(
        `/pay/${encodeURIComponent(requestId ?? '')}?checkout=${encodeURIComponent(payment.paymentId)}`,
      );
    }
  };

  const sandboxAnswered = (paymentId: string, status: PayPaymentStatus) => {
    browser.replaceQuery({ payment: paymentId });
    setStep({ kind: 'outcome', paymentId, returnQuery: {}, initial: status });
  };

  if (loaded.kind === 'loading') {
    return (
      <Layout>
        <p role="status" className="status-line">
          <span className="spinner" aria-hidden="true" />
          Loading your payment request…
        </p>
      </Layout>
    );
  }
  if (loaded.kind === 'failed') {
    return (
      <Layout>
        <h1>We could not load this payment request</h1>
        <p role="alert">{loaded.message}</p>
        <button
          type="button"
          className="primary"
          onClick={() => {
            setLoaded({ kind: 'loading' });
            void load();
          }}
        >
          Try again
        </button>
      </Layout>
    );
  }
  const page = loaded.answer;
  if (page.state === 'Expired') {
    return (
      <Layout>
        <h1 ref={headingRef}>This payment link has expired</h1>
        <p>
          The link is no longer valid, or it was not typed in full. Please ask the company that sent
          it to you for a new one.
        </p>
      </Layout>
    );
  }

  return (
    <Layout page={page}>
      <StateContent
        page={page}
        step={step}
        browser={browser}
        onStarted={started}
        onSandboxAnswered={sandboxAnswered}
        onChooseAgain={chooseAgain}
        onSettled={() => void load()}
      />
    </Layout>
  );
}

function StateContent({
  page,
  step,
  browser,
  onStarted,
  onSandboxAnswered,
  onChooseAgain,
  onSettled,
}: {
  page: PayPage;
  step: Step;
  browser: PayBrowser;
  onStarted: (payment: StartedPayment) => void;
  onSandboxAnswered: (paymentId: string, status: PayPaymentStatus) => void;
  onChooseAgain: () => void;
  onSettled: () => void;
}) {
  const money = (amount: number) => formatMoney(amount, page.currency);
  // Where the form puts its summary bar on a small screen: above the invoices (issue 22 item 15).
  const [summarySlot, setSummarySlot] = useState<HTMLElement | null>(null);

  if (step.kind === 'outcome') {
    const more = page.state === 'Open' || page.state === 'PartCompleted';
    return (
      <>
        <h1>{page.description ?? `Payment to ${page.company.name}`}</h1>
        <PaymentOutcome
          requestId={page.id}
          paymentId={step.paymentId}
          returnQuery={step.returnQuery}
          initial={step.initial}
          companyName={page.company.name}
          onPayAgain={onChooseAgain}
          onSettled={onSettled}
        />
        {more && page.amountToPay > 0 && page.usageType === 'Multiple' && (
          <p>
            {money(page.amountToPay)} is left to pay.{' '}
            <button type="button" className="link inline" onClick={onChooseAgain}>
              Pay the rest
            </button>
          </p>
        )}
      </>
    );
  }

  switch (page.state) {
    case 'Completed':
      return (
        <>
          <h1>Paid, thank you</h1>
          <p>This payment request has been paid in full.</p>
          {page.receipt && <Receipt receipt={page.receipt} />}
          <RequestSummary page={page} />
        </>
      );
    case 'NotYetOpen':
      // docs/decisions/108-links-valid-from-opens-valid-until-closes.md "Links: valid-from opens, valid-until closes".
      return (
        <>
          <h1>This payment link is not open yet</h1>
          <p>
            {page.validFrom
              ? `You can pay from ${formatDateTime(page.validFrom)}.`
              : 'You can pay once it opens.'}{' '}
            If you need to pay sooner, please contact {page.company.name}
            {contactEnding(page.company)}
          </p>
        </>
      );
    case 'Cancelled':
      return (
        <>
          <h1>This payment request has been cancelled</h1>
          <p>
            There is nothing to pay. If you think this is a mistake, please contact{' '}
            {page.company.name}
            {contactEnding(page.company)}
          </p>
        </>
      );
    default: {
      const partPaid = page.state === 'PartCompleted';
      return (
        <>
          <h1>
            {partPaid ? `${money(page.amountToPay)} left to pay` : `Pay ${page.company.name}`}
          </h1>
          {page.overdue && page.paymentRequiredBy && (
            <p className="note overdue-note" role="note">
              Payment was due on {formatDate(page.paymentRequiredBy)} and is now overdue.
              {page.feeTotal > 0 && ' The late-payment fees below keep growing until it is paid.'}
            </p>
          )}
          {partPaid && (
            <p>{money(page.paidAmount)} has been paid so far. You can pay the rest below.</p>
          )}
          {partPaid && page.receipt && <Receipt receipt={page.receipt} />}
          {step.kind === 'choose' && <div ref={setSummarySlot} className="summary-slot" />}
          <RequestSummary page={page} />
          {step.kind === 'sandbox' ? (
            <SandboxCardForm
              requestId={page.id}
              paymentId={step.payment.paymentId}
              amount={step.payment.amount}
              currency={step.payment.currency}
              onAnswered={(status) => onSandboxAnswered(step.payment.paymentId, status)}
              onBack={onChooseAgain}
            />
          ) : step.kind === 'transafe' ? (
            step.frame ? (
              <TranSafeFrame
                requestId={page.id}
                paymentId={step.paymentId}
                step={step.frame.next}
                amount={step.frame.amount}
                currency={step.frame.currency}
                onAnswered={(status) => onSandboxAnswered(step.paymentId, status)}
                onBack={onChooseAgain}
              />
            ) : (
              <ExpiredForm onStartAgain={onChooseAgain} />
            )
          ) : step.kind === 'opayo' ? (
            step.dropIn ? (
              <OpayoDropIn
                requestId={page.id}
                paymentId={step.paymentId}
                step={step.dropIn.next}
                amount={step.dropIn.amount}
                currency={step.dropIn.currency}
                browser={browser}
                onAnswered={(status) => onSandboxAnswered(step.paymentId, status)}
                onBack={onChooseAgain}
              />
            ) : (
              <ExpiredForm onStartAgain={onChooseAgain} />
            )
          ) : step.kind === 'oppwa' ? (
            step.widget ? (
              <OppwaWidget step={step.widget} onBack={onChooseAgain} />
            ) : (
              <ExpiredForm onStartAgain={onChooseAgain} />
            )
          ) : (
            <PayForm page={page} onStarted={onStarted} summarySlot={summarySlot} />
          )}
        </>
      );
    }
  }
}

function ExpiredForm({ onStartAgain }: { onStartAgain: () => void }) {
  return (
    <section className="card">
      <h2>This card form has expired</h2>
      <button type="button" className="primary" onClick={onStartAgain}>
        Start again
      </button>
    </section>
  );
}

function Layout({ page, children }: { page?: PayPage; children: ReactNode }) {
  return (
    <>
      {page?.test && (
        <p className="test-banner" role="note">
          Test mode: no real money moves.
        </p>
      )}
      <header className="company">
        {page?.company.logoUrl && <img src={page.company.logoUrl} alt="" className="logo" />}
        {page && <p className="company-name">{page.company.name}</p>}
      </header>
      <main id="main" className="content">
        {children}
      </main>
      <footer className="footer">
        {page && <CompanyContact company={page.company} />}
        <p className="muted small">Payments handled by Ledgerline.</p>
      </footer>
    </>
  );
}
