import type { PayInvoice, PayPage } from '@ledgerline/contract';
import { formatDate, formatDateTime, formatMoney } from '../format';

function InvoiceItem({ invoice, currency }: { invoice: PayInvoice; currency: string }) {
  const money = (amount: number) => formatMoney(amount, currency);
  return (
    <li className="invoice">
      <h3 className="invoice-title">Invoice {invoice.reference}</h3>
      {invoice.description && <p className="muted">{invoice.description}</p>}
      <dl className="pairs">
        {invoice.dueDate && (
          <>
            <dt>Due</dt>
            <dd>{formatDate(invoice.dueDate)}</dd>
          </>
        )}
        <dt>Outstanding</dt>
        <dd>{money(invoice.outstandingAmount)}</dd>
        {invoice.discount > 0 && (
          <>
            <dt>Early-payment discount if paid today</dt>
            <dd className="saving">−{money(invoice.discount)}</dd>
          </>
        )}
        {invoice.fees.map((fee) => (
          <FeeLine key={fee.type} label={fee.description} amount={money(fee.amount)} />
        ))}
        <dt className="strong">To pay for this invoice</dt>
        <dd className="strong">{money(invoice.amountToPay)}</dd>
      </dl>
      {invoice.discount > 0 && invoice.offer?.validUntil && (
        <p className="note saving-note">
          Pay by {formatDate(invoice.offer.validUntil)} to keep the discount of{' '}
          {money(invoice.discount)}
          {invoice.offer.description ? ` (${invoice.offer.description})` : ''}.
        </p>
      )}
      {invoice.feesReason && <p className="note fee-note">{invoice.feesReason}</p>}
    </li>
  );
}

function FeeLine({ label, amount }: { label: string; amount: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className="fee">+{amount}</dd>
    </>
  );
}

/** What the request asks for: its words, its invoices as they stand today, and the total. */
export function RequestSummary({ page }: { page: PayPage }) {
  const money = (amount: number) => formatMoney(amount, page.currency);
  return (
    <section className="card" aria-labelledby="summary-heading">
      <h2 id="summary-heading">What you are paying</h2>
      <dl className="pairs">
        {page.customerName && (
          <>
            <dt>For</dt>
            <dd>{page.customerName}</dd>
          </>
        )}
        {page.description && (
          <>
            <dt>Description</dt>
            <dd>{page.description}</dd>
          </>
        )}
        {page.reference && (
          <>
            <dt>Reference</dt>
            <dd>{page.reference}</dd>
          </>
        )}
        {page.validUntil && (
          <>
            <dt>Link valid until</dt>
            <dd>{formatDateTime(page.validUntil)}</dd>
          </>
        )}
        {page.paymentRequiredBy && (
          <>
            <dt>Pay by</dt>
            <dd>{formatDate(page.paymentRequiredBy)}</dd>
          </>
        )}
      </dl>
      {page.invoices.length > 0 && (
        <ul className="invoices" aria-label="Invoices">
          {page.invoices.map((invoice) => (
            <InvoiceItem key={invoice.transactionId} invoice={invoice} currency={page.currency} />
          ))}
        </ul>
      )}
      <dl className="pairs totals">
        {page.discountTotal > 0 && (
          <>
            <dt>Early-payment discount</dt>
            <dd className="saving">−{money(page.discountTotal)}</dd>
          </>
        )}
        {page.feeTotal > 0 && (
          <>
            <dt>Late-payment fees</dt>
            <dd className="fee">+{money(page.feeTotal)}</dd>
          </>
        )}
        {page.paidAmount > 0 && (
          <>
            <dt>Already paid</dt>
            <dd>{money(page.paidAmount)}</dd>
          </>
        )}
        <dt className="total">{page.paidAmount > 0 ? 'Left to pay' : 'Total to pay'}</dt>
        <dd className="total">{money(page.amountToPay)}</dd>
      </dl>
      <p className="muted small">Amounts as of {formatDate(page.quotedOn)}.</p>
    </section>
  );
}
