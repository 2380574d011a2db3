import type {
  PayPage,
  PayPageAnswer,
  PayPaymentStatus,
  StartedPayment,
} from '@ledgerline/contract';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import type { PayBrowser } from './browser';
import { CompanyContact } from './components/company-contact';
import { StateContent } from './pay-content';
import { firstStep, goToStartedPayment, type Step } from './pay-steps';
import { usePayPage } from './use-pay-page';

interface PayAppProps {
  requestId: string | null;
  /**
   * The page's query: `payment` after a provider sent the payer back, `checkout` for OPPWA,
   * `frame` for the TranSafe PaymentFrame, `opayo` for the Opayo Pi drop-in.
   */
  query: Record<string, string>;
  browser: PayBrowser;
  /**
   * The answer the server wrote into the page with its first screen (pay/main.tsx):
   * shown at once, and not asked for again.
   */
  firstAnswer?: PayPageAnswer;
}

export function PayApp({ requestId, query, browser, firstAnswer }: PayAppProps) {
  const { loaded, setLoaded, load } = usePayPage(requestId, firstAnswer);
  const [step, setStep] = useState<Step>(() => firstStep(query, browser));
  const headingRef = useRef<HTMLHeadingElement>(null);

  const chooseAgain = useCallback(() => {
    browser.replaceQuery({});
    setStep({ kind: 'choose' });
    void load();
  }, [browser, load]);

  const started = (payment: StartedPayment) =>
    goToStartedPayment(browser, requestId, payment, setStep);

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
