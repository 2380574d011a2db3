import type { PayMethod, PayMethodGroup, PayPage, StartedPayment } from '@ledgerline/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import { PayCallError, startPayment } from '../api';
import { currencyDecimals, formatMoney } from '../format';
import {
  chosenAmount,
  serverFieldErrors,
  validatePayment,
  type FieldErrors,
  type InvoiceAmountRule,
  type InvoiceAmountValue,
  type PaymentFormValues,
} from '../validation';
import { contactEnding } from './company-contact';
import { InvoiceAmounts } from './invoice-amounts';
import { focusFirstError, TextField } from './text-field';

const groupOrder: PayMethodGroup[] = ['Card', 'BankTransfer', 'BankDebit'];
const groupNames: Record<PayMethodGroup, string> = {
  Card: 'Card',
  BankTransfer: 'Bank transfer',
  BankDebit: 'Direct debit',
};

export const noMethodsMessage = 'This company cannot take payments online yet.';

/** The save-card box (issue 21 item 31); the spec gives no wording. */
export const saveCardLabel = 'Save this card for future payments';

function defaultMethod(methods: PayMethod[]): string {
  return (methods.find((method) => method.isDefault) ?? methods[0])?.configurationId ?? '';
}

/** Whether a method's payment amount filter takes the amount (issue 14: it follows the choice). */
function takesAmount(method: PayMethod, amount: number): boolean {
  return (
    (method.minimumAmount == null || amount >= method.minimumAmount) &&
    (method.maximumAmount == null || amount <= method.maximumAmount)
  );
}

/** The methods in their groups (Card, Bank transfer, Direct debit), the default first in each. */
function grouped(methods: PayMethod[]) {
  return groupOrder
    .map((group) => ({
      group,
      methods: methods
        .filter((method) => method.group === group)
        .sort((a, b) => Number(b.isDefault) - Number(a.isDefault)),
    }))
    .filter((entry) => entry.methods.length > 0)
    .sort((a, b) => {
      const hasDefault = (entry: typeof a) => entry.methods.some((method) => method.isDefault);
      return Number(hasDefault(b)) - Number(hasDefault(a));
    });
}

/** The invoices the payer may change, in the page's order (the server's `invoices.{index}`). */
function invoiceRulesOf(page: PayPage): InvoiceAmountRule[] {
  return page.invoices.flatMap((invoice) =>
    invoice.editable
      ? [
          {
            transactionId: invoice.transactionId,
            reference: invoice.reference,
            ...invoice.editable,
            amountToPay: invoice.amountInFull,
            askedAmount: invoice.amountToPay,
            outstandingAmount: invoice.outstandingAmount,
            currency: page.currency,
          },
        ]
      : [],
  );
}

/** The payer's details as the request's billing contact gives them (issue 22 item 15). */
function payerOf(page: PayPage): PaymentFormValues['payer'] {
  const contact = page.billingContact;
  return {
    firstNames: contact?.firstNames ?? '',
    surname: contact?.surname ?? '',
    emailAddress: contact?.emailAddress ?? '',
  };
}

/** Small screens, where the form lies far below the top: the summary bar shows there. */
export const summaryBarMediaQuery = '(max-width: 48em)';

function useMatches(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const changed = () => setMatches(list.matches);
    list.addEventListener('change', changed);
    return () => list.removeEventListener('change', changed);
  }, [query]);
  return matches;
}

const formId = 'pay-form';

interface PayFormProps {
  page: PayPage;
  /**
   * Where the summary bar (the total and a Pay button for this form) goes on a small screen: near
   * the top of the page, sticky, so the payer need not scroll past every invoice to pay.
   */
  summarySlot?: HTMLElement | null;
  /** A payment was started: the page takes the payer to its next step. */
  onStarted: (payment: StartedPayment) => void;
}

/** Open and PartCompleted requests: how to pay, who pays, how much (where part is allowed). */
export function PayForm({ page, onStarted, summarySlot }: PayFormProps) {
  const smallScreen = useMatches(summaryBarMediaQuery);
  const formRef = useRef<HTMLFormElement>(null);
  const decimals = currencyDecimals(page.currency);
  const invoiceRules = invoiceRulesOf(page);
  const [values, setValues] = useState<PaymentFormValues>(() => ({
    configurationId: defaultMethod(page.methods),
    payer: payerOf(page),
    amount: page.amountToPay.toFixed(decimals),
    invoices: Object.fromEntries(
      invoiceRules.map((rule) => [
        rule.transactionId,
        {
          // What the request asks of it, within the bounds the payer may choose in.
          amount: Math.min(
            Math.max(rule.askedAmount, rule.minimumAmount),
            rule.maximumAmount,
          ).toFixed(decimals),
          leftOut: false,
        },
      ]),
    ),
  }));
  // The payer's save-card choice per method; untouched, the method's default (save-card default).
  const [saveCardChoices, setSaveCardChoices] = useState<Record<string, boolean>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Back from a provider's page with the browser's Back button, the page may come from the
  // back-forward cache as it was left: busy. Let the payer choose again.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  if (page.methods.length === 0) {
    return (
      <section className="card" aria-labelledby="no-methods-heading">
        <h2 id="no-methods-heading">{noMethodsMessage}</h2>
        <p>
          Please contact {page.company.name} to pay{contactEnding(page.company)}
        </p>
      </section>
    );
  }

  const partPayment = page.partPayment ? { ...page.partPayment, currency: page.currency } : null;
  const typedAmount = Number(values.amount.replace(/,/g, ''));
  // What the invoices the payer cannot change add up to; the editable ones follow what is typed.
  const fixedTotal = page.invoices
    .filter((invoice) => !invoice.editable)
    .reduce((sum, invoice) => sum + invoice.amountToPay, 0);
  const chosenTotal =
    invoiceRules.length > 0
      ? invoiceRules.reduce(
          (sum, rule) => sum + chosenAmount(values.invoices?.[rule.transactionId], rule),
          fixedTotal,
        )
      : null;
  const buttonAmount =
    partPayment && Number.isFinite(typedAmount) && typedAmount > 0
      ? typedAmount
      : (chosenTotal ?? page.amountToPay);
  // The methods offered follow the amount chosen; the choice falls back to the default of those.
  const offeredMethods = page.methods.filter((method) => takesAmount(method, buttonAmount));
  const configurationId = offeredMethods.some((m) => m.configurationId === values.configurationId)
    ? values.configurationId
    : defaultMethod(offeredMethods);
  const saveCardOffer = offeredMethods.find(
    (method) => method.configurationId === configurationId,
  )?.saveCard;
  const saveCard = saveCardOffer
    ? (saveCardChoices[configurationId] ?? saveCardOffer.checkedByDefault)
    : undefined;
  const setInvoice = (transactionId: string, value: InvoiceAmountValue) =>
    setValues((current) => ({
      ...current,
      invoices: { ...current.invoices, [transactionId]: value },
    }));

  const setPayer = (field: keyof PaymentFormValues['payer'], value: string) =>
    setValues((current) => ({ ...current, payer: { ...current.payer, [field]: value } }));

  const showErrors = (shown: FieldErrors) => {
    setErrors(shown);
    // After React has drawn the messages, so the focused field is read with its error.
    requestAnimationFrame(() => focusFirstError(formRef.current, shown));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const checked = validatePayment(
      { ...values, configurationId, saveCard },
      partPayment,
      invoiceRules,
      fixedTotal,
    );
    if ('errors' in checked) {
      showErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onStarted(await startPayment(page.id, checked.body));
    } catch (error) {
      const failure = error instanceof PayCallError ? error : new PayCallError(String(error), 0);
      const fieldErrors = serverFieldErrors(failure.fieldErrors);
      setFormError(failure.message);
      if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors);
      setBusy(false);
    }
  }

  return (
    <form
      ref={formRef}
      id={formId}
      className="card"
      noValidate
      onSubmit={submit}
      aria-labelledby="pay-heading"
    >
      {smallScreen && summarySlot
        ? createPortal(
            <div className="summary-bar" role="region" aria-label="Payment summary">
              <p className="summary-total">
                Total <strong>{formatMoney(buttonAmount, page.currency)}</strong>
              </p>
              {/* Submits the form below: the same checks, the same errors under its fields. */}
              <button type="submit" form={formId} className="primary" disabled={busy}>
                {busy ? 'Starting…' : 'Pay now'}
              </button>
            </div>,
            summarySlot,
          )
        : null}
      <h2 id="pay-heading">Pay</h2>
      {partPayment && (
        <TextField
          name="amount"
          label={`Amount to pay (${page.currency})`}
          hint={`You can pay part: between ${formatMoney(partPayment.minimumAmount, page.currency)} and ${formatMoney(partPayment.maximumAmount, page.currency)}.`}
          inputMode="decimal"
          autoComplete="off"
          value={values.amount}
          error={errors.amount}
          onChange={(event) => setValues({ ...values, amount: event.target.value })}
        />
      )}
      {invoiceRules.length > 0 && (
        <>
          <InvoiceAmounts
            rules={invoiceRules}
            values={values.invoices ?? {}}
            errors={errors}
            onChange={setInvoice}
          />
          <p className="chosen-total" aria-live="polite">
            Total of this payment: <strong>{formatMoney(chosenTotal ?? 0, page.currency)}</strong>
          </p>
        </>
      )}
      <fieldset
        className="methods"
        aria-describedby={errors.configurationId ? 'methods-error' : undefined}
      >
        <legend>How would you like to pay?</legend>
        {errors.configurationId && (
          <p className="field-error" id="methods-error">
            {errors.configurationId}
          </p>
        )}
        {offeredMethods.length === 0 && (
          <p className="field-error" role="status">
            No way to pay takes {formatMoney(buttonAmount, page.currency)}. Please change the
            amount.
          </p>
        )}
        {grouped(offeredMethods).map(({ group, methods }) => (
          <div key={group} className="method-group" role="group" aria-labelledby={`group-${group}`}>
            <p className="method-group-name" id={`group-${group}`}>
              {groupNames[group]}
            </p>
            {methods.map((method) => (
              <label key={method.configurationId} className="method">
                <input
                  type="radio"
                  name="configurationId"
                  value={method.configurationId}
                  checked={configurationId === method.configurationId}
                  onChange={() => setValues({ ...values, configurationId: method.configurationId })}
                />
                <span>
                  {method.displayName}
                  {method.isTest && <span className="tag">Test</span>}
                </span>
              </label>
            ))}
          </div>
        ))}
        {saveCard !== undefined && (
          <label className="save-card">
            <input
              type="checkbox"
              name="saveCard"
              checked={saveCard}
              onChange={(event) => {
                const checked = event.target.checked;
                setSaveCardChoices((current) => ({ ...current, [configurationId]: checked }));
              }}
            />
            <span>{saveCardLabel}</span>
          </label>
        )}
      </fieldset>
      <fieldset>
        <legend>Your details</legend>
        <TextField
          name="payer.firstNames"
          label="First names"
          autoComplete="given-name"
          maxLength={100}
          value={values.payer.firstNames}
          error={errors['payer.firstNames']}
          onChange={(event) => setPayer('firstNames', event.target.value)}
        />
        <TextField
          name="payer.surname"
          label="Surname"
          autoComplete="family-name"
          maxLength={100}
          value={values.payer.surname}
          error={errors['payer.surname']}
          onChange={(event) => setPayer('surname', event.target.value)}
        />
        <TextField
          name="payer.emailAddress"
          label="Email address"
          hint="We send your receipt here."
          type="email"
          autoComplete="email"
          maxLength={200}
          value={values.payer.emailAddress}
          error={errors['payer.emailAddress']}
          onChange={(event) => setPayer('emailAddress', event.target.value)}
        />
      </fieldset>
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Starting your payment…' : `Pay ${formatMoney(buttonAmount, page.currency)}`}
      </button>
    </form>
  );
}
