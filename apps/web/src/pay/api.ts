import type {
  OpayoCardBody,
  PayPageAnswer,
  PayPaymentStatus,
  SandboxCardBody,
  StartedPayment,
  StartPaymentBody,
  TranSafeTicketBody,
} from '@ledgerline/contract';

/**
 * The payer page's calls (packages/contract schemas/pay.ts). Public: no session, no XSRF header,
 * no Dataset-Id. Only types come from the contract, so the page's bundle carries no schema code.
 */

const base = '/api/v0/pay';

/** Why a call failed, in words for the payer, with the field messages of a 400/422 problem. */
export class PayCallError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    /** Field → messages (`cardNumber`, `payer.emailAddress`, `amount`...). */
    readonly fieldErrors: Record<string, string[]> = {},
    /** A 429's Retry-After, in seconds, when the server gave one. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'PayCallError';
  }
}

export const networkErrorMessage =
  'We could not reach the payment service. Check your connection and try again.';
export const tooManyAttemptsMessage = 'Too many attempts, try again in a minute.';
const unexpectedErrorMessage = 'Something went wrong on our side. Please try again.';

interface ProblemDocument {
  title?: string;
  detail?: string;
  errors?: Record<string, string[]>;
}

async function readProblem(response: Response): Promise<ProblemDocument> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null ? (body as ProblemDocument) : {};
  } catch {
    return {};
  }
}

/** The answer /boot.js asked for while this code was loading, taken once. */
function takeEarlyAnswer(url: string): Promise<Response> | undefined {
  const early = (window as { __ledgerlineEarly?: Record<string, Promise<Response>> })
    .__ledgerlineEarly;
  const answer = early?.[url];
  if (answer) delete early[url];
  return answer;
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const url = `${base}${path}`;
  const ask = () =>
    fetch(url, {
      ...init,
      credentials: 'omit',
      headers: { Accept: 'application/json', ...init.headers },
    });
  const early = init.method === undefined ? takeEarlyAnswer(url) : undefined;
  let response: Response;
  try {
    // An early call that failed is asked again.
    response = await (early ? early.catch(ask) : ask());
  } catch {
    throw new PayCallError(networkErrorMessage, 0);
  }
  if (response.ok) return (await response.json()) as T;
  if (response.status === 429) {
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new PayCallError(
      tooManyAttemptsMessage,
      429,
      {},
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
  const problem = await readProblem(response);
  if (response.status >= 500) throw new PayCallError(unexpectedErrorMessage, response.status);
  throw new PayCallError(
    problem.detail ?? problem.title ?? unexpectedErrorMessage,
    response.status,
    problem.errors ?? {},
  );
}

function post<T>(path: string, body: unknown): Promise<T> {
  return call<T>(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const segment = encodeURIComponent;

export function getPayPage(requestId: string): Promise<PayPageAnswer> {
  return call(`/${segment(requestId)}`);
}

export function startPayment(requestId: string, body: StartPaymentBody): Promise<StartedPayment> {
  return post(`/${segment(requestId)}/payments`, body);
}

/**
 * The outcome of a payment. `returnQuery` is what the provider put on the return URL (OPPWA's
 * `resourcePath`, TrueLayer's `payment_id`, `cancelled`...), passed on for the server to read.
 */
export function getPaymentStatus(
  requestId: string,
  paymentId: string,
  returnQuery: Record<string, string> = {},
): Promise<PayPaymentStatus> {
  const query = new URLSearchParams(returnQuery).toString();
  return call(`/${segment(requestId)}/payments/${segment(paymentId)}${query ? `?${query}` : ''}`);
}

export function payWithSandboxCard(
  requestId: string,
  paymentId: string,
  card: SandboxCardBody,
): Promise<PayPaymentStatus> {
  return post(`/${segment(requestId)}/payments/${segment(paymentId)}/sandbox`, card);
}

/** The card ticket the TranSafe PaymentFrame gave the page: the server charges it. */
export function payWithTranSafeTicket(
  requestId: string,
  paymentId: string,
  ticket: TranSafeTicketBody,
): Promise<PayPaymentStatus> {
  return post(`/${segment(requestId)}/payments/${segment(paymentId)}/transafe`, ticket);
}

/**
 * The card identifier Opayo.js gave the page, with what 3-D Secure asks of the browser: the server
 * charges it, and answers the outcome or the card issuer's challenge.
 */
export function payWithOpayoCard(
  requestId: string,
  paymentId: string,
  card: OpayoCardBody,
): Promise<PayPaymentStatus> {
  return post(`/${segment(requestId)}/payments/${segment(paymentId)}/opayo`, card);
}
