import { formatMoney } from '../format';
import type { FieldErrors, InvoiceAmountRule, InvoiceAmountValue } from '../validation';
import { TextField } from './text-field';

interface InvoiceAmountsProps {
  rules: InvoiceAmountRule[];
  values: Record<string, InvoiceAmountValue>;
  errors: FieldErrors;
  onChange: (transactionId: string, value: InvoiceAmountValue) => void;
}

/**
 * The invoices whose amount the payer may change (PayInvoice.editable): an amount per invoice with
 * its bounds, and a box to leave out one that is not required. Fields are named as the server's
 * errors name them (`invoices.{index}.amount`).
 */
export function InvoiceAmounts({ rules, values, errors, onChange }: InvoiceAmountsProps) {
  return (
    <fieldset
      className="invoice-amounts"
      aria-describedby={errors.invoices ? 'invoices-error' : undefined}
    >
      <legend>How much would you like to pay?</legend>
      <p className="hint">
        You can change what you pay of these invoices. A discount or late fee applies only when you
        pay an invoice in full.
      </p>
      {errors.invoices && (
        <p className="field-error" id="invoices-error">
          {errors.invoices}
        </p>
      )}
      {rules.map((rule, index) => {
        const value = values[rule.transactionId]!;
        const money = (amount: number) => formatMoney(amount, rule.currency);
        const name = `invoices.${index}.amount`;
        const leftOut = value.leftOut && !rule.required;
        return (
          <div key={rule.transactionId} className="invoice-amount">
            <TextField
              name={name}
              label={`Amount for invoice ${rule.reference} (${rule.currency})`}
              hint={`Between ${money(rule.minimumAmount)} and ${money(rule.maximumAmount)}; ${money(rule.amountToPay)} pays it in full.`}
              inputMode="decimal"
              autoComplete="off"
              value={leftOut ? '' : value.amount}
              disabled={leftOut}
              error={leftOut ? undefined : errors[name]}
              onChange={(event) =>
                onChange(rule.transactionId, { ...value, amount: event.target.value })
              }
            />
            {!rule.required && (
              <label className="leave-out">
                <input
                  type="checkbox"
                  name={`invoices.${index}.leaveOut`}
                  checked={value.leftOut}
                  onChange={(event) =>
                    onChange(rule.transactionId, { ...value, leftOut: event.target.checked })
                  }
                />
                <span>Leave invoice {rule.reference} out of this payment</span>
              </label>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
