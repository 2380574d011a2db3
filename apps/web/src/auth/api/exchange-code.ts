import { messages } from '@ledgerline/contract';
import { z } from 'zod';

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
  id_token: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

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
    const error = z
      .object({ error: z.string(), error_description: z.string().optional() })
      .safeParse(answer);
    const detail = error.success ? (error.data.error_description ?? error.data.error) : null;
    throw new SignInError(messages.authenticationNotCorrect, detail);
  }
  const token = tokenResponseSchema.safeParse(answer);
  if (!token.success)
    throw new SignInError(messages.authenticationNotCorrect, 'No access token was returned.');
  return token.data;
}
