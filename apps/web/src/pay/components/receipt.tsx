import type { PayReceipt } from '@ledgerline/contract';
import { formatDateTime, formatMoney } from '../format';

const methodWords: Record<string, string> = {
  Card: 'Card',
  BankTransfer: 'Bank transfer',
  BankDebit: 'Direct debit',
};

/** What the payer keeps: amount, reference, when and how. */
export function Receipt({ receipt }: { receipt: PayReceipt }) {
  const method = receipt.paymentMethodType
    ? (methodWords[receipt.paymentMethodType] ?? receipt.paymentMethodType)
    : null;
  return (
    <section className="card receipt" aria-labelledby="receipt-heading">
      <h2 id="receipt-heading">Receipt</h2>
      <dl className="pairs">
        <dt>Amount paid</dt>
        <dd>{formatMoney(receipt.amount, receipt.currency)}</dd>
        <dt>Payment reference</dt>
        <dd>{receipt.reference}</dd>
        <dt>Paid on</dt>
        <dd>{formatDateTime(receipt.paidAt)}</dd>
        {method && (
          <>
            <dt>Paid by</dt>
            <dd>{receipt.providerName ? `${method} (${receipt.providerName})` : method}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
