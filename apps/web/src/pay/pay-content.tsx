import type { PayPage, PayPaymentStatus, StartedPayment } from '@ledgerline/contract';
import { useState } from 'react';
import type { PayBrowser } from './browser';
import { contactEnding } from './components/company-contact';
import { OpayoDropIn } from './components/opayo-drop-in';
import { OppwaWidget } from './components/oppwa-widget';
import { PayForm } from './components/pay-form';
import { PaymentOutcome } from './components/payment-outcome';
import { Receipt } from './components/receipt';
import { RequestSummary } from './components/request-summary';
import { SandboxCardForm } from './components/sandbox-card-form';
import { TranSafeFrame } from './components/transafe-frame';
import { formatDate, formatDateTime, formatMoney } from './format';
import type { Step } from './pay-steps';

interface StateContentProps {
  page: PayPage;
  step: Step;
  browser: PayBrowser;
  onStarted: (payment: StartedPayment) => void;
  onSandboxAnswered: (paymentId: string, status: PayPaymentStatus) => void;
  onChooseAgain: () => void;
  onSettled: () => void;
}

/** What the page shows for the request's state and the payer's step. */
export function StateContent(props: StateContentProps) {
  const { page, step } = props;
  if (step.kind === 'outcome') return <OutcomeContent {...props} step={step} />;
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
    default:
      return <OpenContent {...props} />;
  }
}

/** Back from a payment: its outcome, and the rest to pay when the link takes more. */
function OutcomeContent({
  page,
  step,
  onChooseAgain,
  onSettled,
}: StateContentProps & { step: Extract<Step, { kind: 'outcome' }> }) {
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
          {formatMoney(page.amountToPay, page.currency)} is left to pay.{' '}
          <button type="button" className="link inline" onClick={onChooseAgain}>
            Pay the rest
          </button>
        </p>
      )}
    </>
  );
}

/** A request open to pay (in full or in part): what is owed, and the form of the payer's step. */
function OpenContent(props: StateContentProps) {
  const { page, step } = props;
  const money = (amount: number) => formatMoney(amount, page.currency);
  // Where the form puts its summary bar on a small screen: above the invoices.
  const [summarySlot, setSummarySlot] = useState<HTMLElement | null>(null);
  const partPaid = page.state === 'PartCompleted';
  return (
    <>
      <h1>{partPaid ? `${money(page.amountToPay)} left to pay` : `Pay ${page.company.name}`}</h1>
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
      <StepForm {...props} summarySlot={summarySlot} />
    </>
  );
}

/** The form of the payer's step: choosing how to pay, or a provider's card form. */
function StepForm({
  page,
  step,
  browser,
  onStarted,
  onSandboxAnswered,
  onChooseAgain,
  summarySlot,
}: StateContentProps & { summarySlot: HTMLElement | null }) {
  switch (step.kind) {
    case 'sandbox':
      return (
        <SandboxCardForm
          requestId={page.id}
          paymentId={step.payment.paymentId}
          amount={step.payment.amount}
          currency={step.payment.currency}
          onAnswered={(status) => onSandboxAnswered(step.payment.paymentId, status)}
          onBack={onChooseAgain}
        />
      );
    case 'transafe':
      return step.frame ? (
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
      );
    case 'opayo':
      return step.dropIn ? (
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
      );
    case 'oppwa':
      return step.widget ? (
        <OppwaWidget step={step.widget} onBack={onChooseAgain} />
      ) : (
        <ExpiredForm onStartAgain={onChooseAgain} />
      );
    default:
      return <PayForm page={page} onStarted={onStarted} summarySlot={summarySlot} />;
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
