import { messages } from '@ledgerline/contract';

/** RFC 6749 §5.1, the part the site uses. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  id_token?: string;
}

// The identity provider's answers are checked by hand, not with zod: the sign-in callback is part
// of the first load, which zod is not (docs/decisions/085-first-load-under-170-kb.md "First load under 170 KB").
const fieldsOf = (answer: unknown): Record<string, unknown> =>
  typeof answer === 'object' && answer !== null && !Array.isArray(answer)
    ? (answer as Record<string, unknown>)
    : {};

/** A token answer: a non-empty access token and a positive lifetime (a number or numeric text). */
function readTokenResponse(answer: unknown): TokenResponse | null {
  const { access_token: accessToken, expires_in: expiresIn, id_token: idToken } = fieldsOf(answer);
  const lifetime =
    typeof expiresIn === 'number' || (typeof expiresIn === 'string' && expiresIn.trim() !== '')
      ? Number(expiresIn)
      : Number.NaN;
  if (typeof accessToken !== 'string' || accessToken === '' || !(lifetime > 0)) return null;
  if (idToken !== undefined && typeof idToken !== 'string') return null;
  return {
    access_token: accessToken,
    expires_in: lifetime,
    ...(idToken !== undefined && { id_token: idToken }),
  };
}

/** RFC 6749 §5.2: `error` and its optional description, or null when the answer is not one. */
function readErrorDetail(answer: unknown): string | null {
  const { error, error_description: description } = fieldsOf(answer);
  if (typeof error !== 'string') return null;
  if (description !== undefined && typeof description !== 'string') return null;
  return description ?? error;
}

export interface CodeExchange {
  tokenEndpoint: string;
  clientId: string;
  code: string;
  codeVerifier: string;
  redirectUri: string;
  resource: string | null;
}

/** A sign-in failure with the provider's own explanation kept apart from our message. */
export class SignInError extends Error {
  readonly detail: string | null;
  constructor(message: string, detail: string | null = null) {
    super(message);
    this.name = 'SignInError';
    this.detail = detail;
  }
}

/** RFC 6749 §4.1.3 with the PKCE verifier (RFC 7636 §4.5), form-encoded. */
export async function exchangeCode(request: CodeExchange): Promise<TokenResponse> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: request.code,
    redirect_uri: request.redirectUri,
    client_id: request.clientId,
    code_verifier: request.codeVerifier,
  });
  if (request.resource !== null) body.set('resource', request.resource);

  const response = await fetch(request.tokenEndpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body,
  });
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    throw new SignInError(messages.authenticationNotCorrect, readErrorDetail(answer));
  }
  const token = readTokenResponse(answer);
  if (!token)
    throw new SignInError(messages.authenticationNotCorrect, 'No access token was returned.');
  return token;
}
