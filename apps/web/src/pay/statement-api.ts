import type { StatementPage, StatementPay, StatementPayBody } from '@ledgerline/contract';
import { networkErrorMessage, PayCallError, tooManyAttemptsMessage } from './api';

/**
 * The statement page's calls (packages/contract schemas/statements.ts). Public: no
 * session, no XSRF header. 404: the link does not exist; 410: it has expired.
 */
const base = '/api/v0/statements';
const unexpected = 'Something went wrong on our side. Please try again.';

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      ...init,
      credentials: 'omit',
      headers: { Accept: 'application/json', ...init.headers },
    });
  } catch {
    throw new PayCallError(networkErrorMessage, 0);
  }
  if (response.ok) return (await response.json()) as T;
  if (response.status === 429) throw new PayCallError(tooManyAttemptsMessage, 429);
  let problem: { detail?: string; errors?: Record<string, string[]> } = {};
  try {
    problem = (await response.json()) as typeof problem;
  } catch {
    problem = {};
  }
  if (response.status >= 500) throw new PayCallError(unexpected, response.status);
  throw new PayCallError(problem.detail ?? unexpected, response.status, problem.errors ?? {});
}

/**
 * The contract's statementMessages, copied: the payer page takes only types from the contract, so
 * its bundle carries no schema code (statement-app.test.tsx checks they stay equal).
 */
export const statementMessages = {
  unknown: 'This statement link does not exist. Ask the company for a new one.',
  expired: 'This statement link has expired. Ask the company for a new one.',
  nothingOpen: 'Nothing is open on this statement: every invoice is paid.',
  nothingChosen: 'Choose at least one invoice to pay.',
  oneCurrency: 'Choose invoices in one currency: one payment is in one currency.',
} as const;

const segment = encodeURIComponent;

export function getStatement(token: string): Promise<StatementPage> {
  return call(`/${segment(token)}`);
}

export function payStatement(token: string, body: StatementPayBody): Promise<StatementPay> {
  return call(`/${segment(token)}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The statement's PDF, downloaded by the browser itself. */
export const statementPdfUrl = (token: string) => `${base}/${segment(token)}/pdf`;
