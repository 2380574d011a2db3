import type { PayPage } from '@ledgerline/contract';
import type { FieldErrors, PaymentFormValues } from '../validation';
import { TextField } from './text-field';

/** The payer's details as the request's billing contact gives them. */
export function payerOf(page: PayPage): PaymentFormValues['payer'] {
  const contact = page.billingContact;
  return {
    firstNames: contact?.firstNames ?? '',
    surname: contact?.surname ?? '',
    emailAddress: contact?.emailAddress ?? '',
  };
}

/** The payer's name and email address. */
export function PayerFieldset({
  payer,
  errors,
  onChange,
}: {
  payer: PaymentFormValues['payer'];
  errors: FieldErrors;
  onChange: (field: keyof PaymentFormValues['payer'], value: string) => void;
}) {
  return (
    <fieldset>
      <legend>Your details</legend>
      <TextField
        name="payer.firstNames"
        label="First names"
        autoComplete="given-name"
        maxLength={100}
        value={payer.firstNames}
        error={errors['payer.firstNames']}
        onChange={(event) => onChange('firstNames', event.target.value)}
      />
      <TextField
        name="payer.surname"
        label="Surname"
        autoComplete="family-name"
        maxLength={100}
        value={payer.surname}
        error={errors['payer.surname']}
        onChange={(event) => onChange('surname', event.target.value)}
      />
      <TextField
        name="payer.emailAddress"
        label="Email address"
        hint="We send your receipt here."
        type="email"
        autoComplete="email"
        maxLength={200}
        value={payer.emailAddress}
        error={errors['payer.emailAddress']}
        onChange={(event) => onChange('emailAddress', event.target.value)}
      />
    </fieldset>
  );
}
