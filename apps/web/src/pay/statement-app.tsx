import type { StatementPage } from '@ledgerline/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { PayCallError } from './api';
import type { PayBrowser } from './browser';
import { CompanyContact } from './components/company-contact';
import { formatDate, formatDateTime, formatMoney } from './format';
import { getStatement, payStatement, statementMessages, statementPdfUrl } from './statement-api';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'gone'; title: string; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; statement: StatementPage };

/** `/statement/{token}` → the token, or null. */
export function statementTokenFromPath(pathname: string): string | null {
  const match = /^\/statement\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/**
 * An account's statement: every open invoice, oldest first, with what it costs if paid
 * today. The payer ticks some or all (all of the first currency by default) and pays them in one
 * payment: the server makes (or reuses) a payment request of those invoices and the payer goes on
 * to its page (`/pay/{id}`), where every provider and rule of the payer page applies.
 */
export function StatementApp({
  token,
  browser,
}: {
  token: string | null;
  browser: Pick<PayBrowser, 'goTo'>;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!token) {
      setLoaded({
        kind: 'gone',
        title: 'This statement link does not exist',
        message: statementMessages.unknown,
      });
      return;
    }
    try {
      const statement = await getStatement(token);
      const first = statement.invoices[0]?.currency;
      setChosen(
        new Set(statement.invoices.filter((i) => i.currency === first).map((i) => i.transactionId)),
      );
      setLoaded({ kind: 'ready', statement });
    } catch (error) {
      if (error instanceof PayCallError && (error.status === 404 || error.status === 400))
        setLoaded({
          kind: 'gone',
          title: 'This statement link does not exist',
          message: statementMessages.unknown,
        });
      else if (error instanceof PayCallError && error.status === 410)
        setLoaded({
          kind: 'gone',
          title: 'This statement link has expired',
          message: statementMessages.expired,
        });
      else
        setLoaded({
          kind: 'failed',
          message: error instanceof Error ? error.message : String(error),
        });
    }
  }, [token]);

  useEffect(() => {
    void load();
  }, [load]);

  const statement = loaded.kind === 'ready' ? loaded.statement : null;
  useEffect(() => {
    document.title = statement ? `Statement from ${statement.company.name}` : 'Statement';
  }, [statement]);

  const picked = useMemo(
    () => statement?.invoices.filter((i) => chosen.has(i.transactionId)) ?? [],
    [statement, chosen],
  );
  const currencies = [...new Set(picked.map((i) => i.currency))];
  const total = picked.reduce((sum, i) => sum + Math.round(i.amountToPay * 100), 0) / 100;

  if (loaded.kind === 'loading')
    return (
      <Frame>
        <p role="status" className="status-line">
          <span className="spinner" aria-hidden="true" />
          Loading your statement…
        </p>
      </Frame>
    );
  if (loaded.kind === 'gone')
    return (
      <Frame>
        <h1>{loaded.title}</h1>
        <p>{loaded.message}</p>
      </Frame>
    );
  if (loaded.kind === 'failed')
    return (
      <Frame>
        <h1>We could not load this statement</h1>
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
      </Frame>
    );

  const page = loaded.statement;
  const toggle = (id: string, on: boolean) =>
    setChosen((now) => {
      const next = new Set(now);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allTicked = page.invoices.length > 0 && picked.length === page.invoices.length;
  const pay = async () => {
    if (!token) return;
    setPaying(true);
    setPayError(null);
    try {
      const answer = await payStatement(token, {
        transactionIds: picked.map((i) => i.transactionId),
      });
      browser.goTo(answer.payUrl);
    } catch (error) {
      setPayError(error instanceof Error ? error.message : String(error));
      setPaying(false);
    }
  };
  const problem =
    picked.length === 0
      ? statementMessages.nothingChosen
      : currencies.length > 1
        ? statementMessages.oneCurrency
        : null;

  return (
    <Frame statement={page}>
      <h1>Statement for {page.accountName}</h1>
      <p className="muted">
        Account {page.accountReference}. Amounts as of {formatDate(page.quotedOn)}, with any
        early-payment discount or late fee that applies if you pay today.
        {page.expiresAt && <> This link works until {formatDateTime(page.expiresAt)}.</>}
      </p>
      <p>
        <a href={statementPdfUrl(token ?? '')} download>
          Download statement (PDF)
        </a>
      </p>
      {page.invoices.length === 0 ? (
        <p role="status">{statementMessages.nothingOpen}</p>
      ) : (
        <section className="card" aria-labelledby="invoices-heading">
          <h2 id="invoices-heading">Open invoices</h2>
          <label className="statement-all">
            <input
              type="checkbox"
              checked={allTicked}
              onChange={(event) =>
                setChosen(
                  event.currentTarget.checked
                    ? new Set(page.invoices.map((i) => i.transactionId))
                    : new Set(),
                )
              }
            />{' '}
            Select all invoices
          </label>
          <ul className="invoices">
            {page.invoices.map((invoice) => {
              const money = (amount: number) => formatMoney(amount, invoice.currency);
              return (
                <li key={invoice.transactionId} className="invoice">
                  <label className="statement-invoice">
                    <input
                      type="checkbox"
                      checked={chosen.has(invoice.transactionId)}
                      onChange={(event) =>
                        toggle(invoice.transactionId, event.currentTarget.checked)
                      }
                      aria-label={`Pay invoice ${invoice.reference}`}
                    />{' '}
                    <strong>Invoice {invoice.reference}</strong>
                    {invoice.overdue && <span className="tag"> Overdue</span>}
                  </label>
                  {invoice.description && <p className="muted">{invoice.description}</p>}
                  <dl className="pairs">
                    {invoice.transactionDate && (
                      <>
                        <dt>Dated</dt>
                        <dd>{formatDate(invoice.transactionDate)}</dd>
                      </>
                    )}
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
                    {invoice.fees > 0 && (
                      <>
                        <dt>Late-payment fees</dt>
                        <dd className="fee">+{money(invoice.fees)}</dd>
                      </>
                    )}
                    <dt className="strong">To pay today</dt>
                    <dd className="strong">{money(invoice.amountToPay)}</dd>
                  </dl>
                  {invoice.feesReason && <p className="note fee-note">{invoice.feesReason}</p>}
                </li>
              );
            })}
          </ul>
          <p className="chosen-total" aria-live="polite">
            {picked.length === 1 ? '1 invoice selected' : `${picked.length} invoices selected`}
            {currencies.length === 1 && (
              <>
                {': '}
                <strong>Total {formatMoney(total, currencies[0]!)}</strong>
              </>
            )}
          </p>
          {problem && picked.length > 0 && (
            <p className="form-error" role="alert">
              {problem}
            </p>
          )}
          {payError && (
            <p className="form-error" role="alert">
              {payError}
            </p>
          )}
          <button
            type="button"
            className="primary"
            disabled={problem !== null || paying}
            onClick={() => void pay()}
          >
            {paying
              ? 'Preparing your payment…'
              : problem === null
                ? `Pay ${formatMoney(total, currencies[0]!)}`
                : 'Pay'}
          </button>
        </section>
      )}
    </Frame>
  );
}

function Frame({ statement, children }: { statement?: StatementPage; children: React.ReactNode }) {
  return (
    <>
      <header className="company">
        {statement && <p className="company-name">{statement.company.name}</p>}
      </header>
      <main id="main" className="content">
        {children}
      </main>
      <footer className="footer">
        {statement && <CompanyContact company={statement.company} />}
        <p className="muted small">Payments handled by Ledgerline.</p>
      </footer>
    </>
  );
}
