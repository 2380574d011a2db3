import type { PayPage, StartedPayment } from '@ledgerline/contract';
import {
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type FormEvent,
  type RefObject,
  type SetStateAction,
} from 'react';
import { createPortal } from 'react-dom';
import { PayCallError, startPayment } from '../api';
import { currencyDecimals, formatMoney } from '../format';
import {
  chosenAmount,
  serverFieldErrors,
  validatePayment,
  type FieldErrors,
  type InvoiceAmountRule,
  type PaymentFormValues,
} from '../validation';
import { contactEnding } from './company-contact';
import { InvoiceAmounts } from './invoice-amounts';
import { defaultMethod, methodChoice, MethodsFieldset } from './pay-methods';
import { PayerFieldset, payerOf } from './payer-fieldset';
import { focusFirstError, TextField } from './text-field';

export { saveCardLabel } from './pay-methods';

export const noMethodsMessage = 'This company cannot take payments online yet.';

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
  const formRef = useRef<HTMLFormElement>(null);
  const decimals = currencyDecimals(page.currency);
  const invoiceRules = invoiceRulesOf(page);
  const [values, setValues] = useState<PaymentFormValues>(() =>
    initialValues(page, invoiceRules, decimals),
  );
  // The payer's save-card choice per method (untouched: the method's default).
  const [saveCardChoices, setSaveCardChoices] = useState<Record<string, boolean>>({});
  const { errors, formError, busy, start } = usePaymentStart(page.id, formRef, onStarted);

  if (page.methods.length === 0) return <NoMethods page={page} />;

  const { partPayment, fixedTotal, chosenTotal, buttonAmount } = amountsOf(
    page,
    values,
    invoiceRules,
  );
  const { offeredMethods, configurationId, saveCard } = methodChoice(
    page.methods,
    buttonAmount,
    values.configurationId,
    saveCardChoices,
  );

  const setPayer = (field: keyof PaymentFormValues['payer'], value: string) =>
    setValues((current) => ({ ...current, payer: { ...current.payer, [field]: value } }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start(
      validatePayment(
        { ...values, configurationId, saveCard },
        partPayment,
        invoiceRules,
        fixedTotal,
      ),
    );
  };

  return (
    <form
      ref={formRef}
      id={formId}
      className="card"
      noValidate
      onSubmit={submit}
      aria-labelledby="pay-heading"
    >
      <SummaryBar slot={summarySlot} total={formatMoney(buttonAmount, page.currency)} busy={busy} />
      <h2 id="pay-heading">Pay</h2>
      <AmountFields
        page={page}
        partPayment={partPayment}
        invoiceRules={invoiceRules}
        chosenTotal={chosenTotal}
        values={values}
        errors={errors}
        setValues={setValues}
      />
      <MethodsFieldset
        methods={offeredMethods}
        configurationId={configurationId}
        error={errors.configurationId}
        amount={formatMoney(buttonAmount, page.currency)}
        onChoose={(chosen) => setValues({ ...values, configurationId: chosen })}
        saveCard={saveCard}
        onSaveCard={(checked) =>
          setSaveCardChoices((current) => ({ ...current, [configurationId]: checked }))
        }
      />
      <PayerFieldset payer={values.payer} errors={errors} onChange={setPayer} />
      <FormEnd formError={formError} busy={busy} total={formatMoney(buttonAmount, page.currency)} />
    </form>
  );
}

/**
 * What the form's amounts come to: the part payment's bounds, what the invoices the payer cannot
 * change add up to (the editable ones follow what is typed), and the amount the Pay button shows.
 */
function amountsOf(page: PayPage, values: PaymentFormValues, invoiceRules: InvoiceAmountRule[]) {
  const partPayment = page.partPayment ? { ...page.partPayment, currency: page.currency } : null;
  const typedAmount = Number(values.amount.replace(/,/g, ''));
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
  return { partPayment, fixedTotal, chosenTotal, buttonAmount };
}

/** The form's first values: the default method, the billing contact, what the request asks. */
function initialValues(
  page: PayPage,
  invoiceRules: InvoiceAmountRule[],
  decimals: number,
): PaymentFormValues {
  return {
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
  };
}

/**
 * Back from a provider's page with the browser's Back button, the page may come from the
 * back-forward cache as it was left: busy. Let the payer choose again.
 */
function useNotBusyWhenRestored(setBusy: (busy: boolean) => void) {
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [setBusy]);
}

/** On a small screen, near the top (in `slot`): the total and a Pay button for the form below. */
function SummaryBar({
  slot,
  total,
  busy,
}: {
  slot: HTMLElement | null | undefined;
  total: string;
  busy: boolean;
}) {
  const smallScreen = useMatches(summaryBarMediaQuery);
  if (!smallScreen || !slot) return null;
  return createPortal(
    <div className="summary-bar" role="region" aria-label="Payment summary">
      <p className="summary-total">
        Total <strong>{total}</strong>
      </p>
      {/* Submits the form below: the same checks, the same errors under its fields. */}
      <button type="submit" form={formId} className="primary" disabled={busy}>
        {busy ? 'Starting…' : 'Pay now'}
      </button>
    </div>,
    slot,
  );
}

function NoMethods({ page }: { page: PayPage }) {
  return (
    <section className="card" aria-labelledby="no-methods-heading">
      <h2 id="no-methods-heading">{noMethodsMessage}</h2>
      <p>
        Please contact {page.company.name} to pay{contactEnding(page.company)}
      </p>
    </section>
  );
}

/**
 * Starting the payment the form checked: its errors under their fields (the first focused), or
 * the server's answer, and the form busy meanwhile.
 */
function usePaymentStart(
  requestId: string,
  formRef: RefObject<HTMLFormElement | null>,
  onStarted: (payment: StartedPayment) => void,
) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useNotBusyWhenRestored(setBusy);

  const showErrors = (shown: FieldErrors) => {
    setErrors(shown);
    // After React has drawn the messages, so the focused field is read with its error.
    requestAnimationFrame(() => focusFirstError(formRef.current, shown));
  };

  async function start(checked: ReturnType<typeof validatePayment>) {
    setFormError(null);
    if ('errors' in checked) {
      showErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onStarted(await startPayment(requestId, checked.body));
    } catch (error) {
      const failure = error instanceof PayCallError ? error : new PayCallError(String(error), 0);
      const fieldErrors = serverFieldErrors(failure.fieldErrors);
      setFormError(failure.message);
      if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors);
      setBusy(false);
    }
  }

  return {
    errors,
    formError,
    busy,
    start: (checked: ReturnType<typeof validatePayment>) => void start(checked),
  };
}

/** What the payer pays: an amount within the part payment's bounds, or each invoice's amount. */
function AmountFields({
  page,
  partPayment,
  invoiceRules,
  chosenTotal,
  values,
  errors,
  setValues,
}: {
  page: PayPage;
  partPayment: ReturnType<typeof amountsOf>['partPayment'];
  invoiceRules: InvoiceAmountRule[];
  chosenTotal: number | null;
  values: PaymentFormValues;
  errors: FieldErrors;
  setValues: Dispatch<SetStateAction<PaymentFormValues>>;
}) {
  return (
    <>
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
            onChange={(transactionId, value) =>
              setValues((current) => ({
                ...current,
                invoices: { ...current.invoices, [transactionId]: value },
              }))
            }
          />
          <p className="chosen-total" aria-live="polite">
            Total of this payment: <strong>{formatMoney(chosenTotal ?? 0, page.currency)}</strong>
          </p>
        </>
      )}
    </>
  );
}

/** The server's refusal, if any, and the Pay button. */
function FormEnd({
  formError,
  busy,
  total,
}: {
  formError: string | null;
  busy: boolean;
  total: string;
}) {
  return (
    <>
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Starting your payment…' : `Pay ${total}`}
      </button>
    </>
  );
}
