import { messages } from '@ledgerline/contract';

/** What the identity provider sent back to the redirect address. */
export type SignInCallback =
  | { kind: 'code'; code: string; state: string }
  | { kind: 'error'; error: string; description: string | null; state: string | null };

const callbackParams = [
  'code',
  'state',
  'error',
  'error_description',
  'error_uri',
  'iss',
  'session_state',
];

function samePath(a: URL, b: URL): boolean {
  const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);
  return a.origin === b.origin && trim(a.pathname) === trim(b.pathname);
}

/**
 * spec 1 §4: the callback is the redirect address with a code and a state. A provider error on
 * the redirect address (RFC 6749 §4.1.2.1) is a callback too, so that it can be shown.
 */
export function readSignInCallback(currentUrl: string, redirectUrl: string): SignInCallback | null {
  const current = new URL(currentUrl);
  if (!samePath(current, new URL(redirectUrl, current))) return null;
  const params = current.searchParams;
  const code = params.get('code');
  const state = params.get('state');
  if (code && state) return { kind: 'code', code, state };
  const error = params.get('error');
  if (error) return { kind: 'error', error, description: params.get('error_description'), state };
  return null;
}

/** The address with the provider's answer removed (path, other query values and hash kept). */
export function withoutCallbackParams(currentUrl: string): string {
  const url = new URL(currentUrl);
  for (const name of callbackParams) url.searchParams.delete(name);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** spec 1 §4: the returned state must equal the stored one. */
export function verifyState(returned: string, stored: string | null): void {
  if (!stored || returned !== stored) throw new Error(messages.stateNotMatched);
}

/** Only a same-origin path may be restored after sign-in (no open redirect). */
export function safeReturnPath(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return '/';
  return value;
}
