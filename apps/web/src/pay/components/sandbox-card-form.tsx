import type { PayPaymentStatus } from '@ledgerline/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PayCallError, payWithSandboxCard } from '../api';
import { formatMoney } from '../format';
import {
  serverFieldErrors,
  validateSandboxCard,
  type FieldErrors,
  type SandboxCardValues,
} from '../validation';
import { focusFirstError, TextField } from './text-field';

interface SandboxCardFormProps {
  requestId: string;
  paymentId: string;
  amount: number;
  currency: string;
  /** The Sandbox answered: the page shows the outcome. */
  onAnswered: (status: PayPaymentStatus) => void;
  onBack: () => void;
}

/**
 * The contract's `sandboxCards`, written out: importing a value from the contract brings zod into
 * the page (validation.test.ts checks they agree).
 */
export const sandboxTestCards = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  reserved: '4000000000003220',
};

const testCards = [
  { number: sandboxTestCards.succeeds, result: 'succeeds' },
  { number: sandboxTestCards.declined, result: 'is declined' },
  { number: sandboxTestCards.reserved, result: 'is reserved (authorised, captured later)' },
];

function spaced(cardNumber: string) {
  return cardNumber.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Ledgerline's own test provider: a card form on the page that moves no money. */
export function SandboxCardForm(props: SandboxCardFormProps) {
  const { requestId, paymentId, amount, currency, onAnswered, onBack } = props;
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [values, setValues] = useState<SandboxCardValues>({
    cardholderName: '',
    cardNumber: '',
    expiry: '',
    cvc: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => headingRef.current?.focus(), []);

  const set = (field: keyof SandboxCardValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const showErrors = (shown: FieldErrors) => {
    setErrors(shown);
    requestAnimationFrame(() => focusFirstError(formRef.current, shown));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const checked = validateSandboxCard(values);
    if ('errors' in checked) {
      showErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onAnswered(await payWithSandboxCard(requestId, paymentId, checked.body));
    } catch (error) {
      const failure = error instanceof PayCallError ? error : new PayCallError(String(error), 0);
      setFormError(failure.message);
      const fieldErrors = serverFieldErrors(failure.fieldErrors);
      if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors);
      setBusy(false);
    }
  }

  return (
    <form
      ref={formRef}
      className="card"
      noValidate
      onSubmit={submit}
      aria-labelledby="card-heading"
    >
      <h2 id="card-heading" ref={headingRef} tabIndex={-1}>
        Card details
      </h2>
      <div className="test-cards" role="note" aria-label="Sandbox test cards">
        <p className="strong">
          Sandbox test provider: no money moves. Use one of these card numbers with any future
          expiry date and any 3-digit security code.
        </p>
        <ul>
          {testCards.map((card) => (
            <li key={card.number}>
              <span className="mono">{spaced(card.number)}</span> {card.result}
            </li>
          ))}
        </ul>
      </div>
      <TextField
        name="cardholderName"
        label="Name on card"
        autoComplete="cc-name"
        maxLength={100}
        value={values.cardholderName}
        error={errors.cardholderName}
        onChange={set('cardholderName')}
      />
      <TextField
        name="cardNumber"
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        maxLength={23}
        value={values.cardNumber}
        error={errors.cardNumber}
        onChange={set('cardNumber')}
      />
      <div className="field-row">
        <TextField
          name="expiry"
          label="Expiry date"
          hint="MM/YY"
          inputMode="numeric"
          autoComplete="cc-exp"
          maxLength={5}
          value={values.expiry}
          error={errors.expiry}
          onChange={set('expiry')}
        />
        <TextField
          name="cvc"
          label="Security code"
          hint="3 or 4 digits"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={4}
          value={values.cvc}
          error={errors.cvc}
          onChange={set('cvc')}
        />
      </div>
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Paying…' : `Pay ${formatMoney(amount, currency)}`}
      </button>
      <button type="button" className="link" onClick={onBack} disabled={busy}>
        Choose another way to pay
      </button>
    </form>
  );
}
