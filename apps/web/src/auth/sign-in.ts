import type { SignInConfig } from '@ledgerline/contract';
import type { QueryClient } from '@tanstack/react-query';
import { assignLocation } from '@/lib/browser-location';
import { clearSession, getIdToken, storeSession } from '@/lib/session';
import { session, storageKeys } from '@/lib/storage';
import { exchangeCode, SignInError } from './api/exchange-code';
import { getLogout } from './api/get-logout';
import { getOidcDiscovery } from './api/get-oidc-discovery';
import { signInConfigQueryOptions } from './api/get-sign-in-config';
import { postLogin } from './api/post-login';
import { safeReturnPath, verifyState, type SignInCallback } from './callback';
import { createCodeChallenge, generateCodeVerifier, generateState } from './pkce';

export const missingVerifierMessage = 'The PKCE code verifier is missing from storage.';
export const signInRefusedMessage = 'The identity provider did not sign you in.';

export function redirectUri(config: SignInConfig): string {
  return new URL(config.redirectPath, window.location.origin).toString();
}

function clearPendingSignIn(): void {
  session.set(storageKeys.codeVerifier, null);
  session.set(storageKeys.state, null);
  session.set(storageKeys.returnTo, null);
}

/** spec 1 §4 "on failure, authentication data is cleared". */
export function clearSignInData(): void {
  clearSession();
  clearPendingSignIn();
}

/**
 * spec 1 §4: send the browser to the identity provider with PKCE (S256, 64-byte verifier, 8-byte
 * hex state), remembering the address to come back to.
 */
export async function startSignIn(config: SignInConfig): Promise<void> {
  const discovery = await getOidcDiscovery(config.issuer);
  const verifier = generateCodeVerifier();
  const state = generateState();
  const challenge = await createCodeChallenge(verifier);

  const { pathname, search, hash } = window.location;
  const onCallbackPage = pathname === new URL(redirectUri(config)).pathname;
  session.set(storageKeys.codeVerifier, verifier);
  session.set(storageKeys.state, state);
  session.set(storageKeys.returnTo, onCallbackPage ? '/' : `${pathname}${search}${hash}`);

  const url = new URL(discovery.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', redirectUri(config));
  url.searchParams.set('scope', config.scope);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  if (config.resource !== null) url.searchParams.set('resource', config.resource);
  assignLocation(url.toString());
}

/**
 * spec 1 §4: check the state, exchange the code, post the access token to the product's login
 * call and store the expiry. Answers the address to restore.
 */
export async function completeSignIn(
  config: SignInConfig,
  callback: SignInCallback,
): Promise<string> {
  if (callback.kind === 'error') {
    throw new SignInError(signInRefusedMessage, callback.description ?? callback.error);
  }
  verifyState(callback.state, session.get(storageKeys.state));
  const codeVerifier = session.get(storageKeys.codeVerifier);
  if (!codeVerifier) throw new SignInError(missingVerifierMessage);

  const discovery = await getOidcDiscovery(config.issuer);
  const token = await exchangeCode({
    tokenEndpoint: discovery.token_endpoint,
    clientId: config.clientId,
    code: callback.code,
    codeVerifier,
    redirectUri: redirectUri(config),
    resource: config.resource,
  });
  await postLogin(token.access_token);
  storeSession(token.expires_in, token.id_token ?? null);

  const returnTo = safeReturnPath(session.get(storageKeys.returnTo));
  clearPendingSignIn();
  return returnTo;
}

// One exchange per code: React's development double effects must not spend the code twice.
const completions = new Map<string, Promise<string>>();
export function completeSignInOnce(
  config: SignInConfig,
  callback: SignInCallback,
): Promise<string> {
  const key = callback.kind === 'code' ? callback.code : `error:${callback.error}`;
  let completion = completions.get(key);
  if (!completion) {
    completion = completeSignIn(config, callback);
    completions.set(key, completion);
  }
  return completion;
}

/**
 * spec 1 §4: end the server session, clear what the browser keeps and go to the provider's
 * sign-out address. A failing logout call must not keep the user signed in here.
 */
export async function signOut(config: SignInConfig): Promise<void> {
  await getLogout().catch(() => undefined);
  const idToken = getIdToken();
  clearSignInData();

  const postLogoutRedirectUri = new URL(
    config.postLogoutRedirectPath,
    window.location.origin,
  ).toString();
  const discovery = await getOidcDiscovery(config.issuer).catch(() => null);
  if (!discovery?.end_session_endpoint) {
    assignLocation(postLogoutRedirectUri);
    return;
  }
  const url = new URL(discovery.end_session_endpoint);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('post_logout_redirect_uri', postLogoutRedirectUri);
  if (idToken) url.searchParams.set('id_token_hint', idToken);
  assignLocation(url.toString());
}

let signInUnderway: Promise<void> | null = null;

/** spec 1 §8: a 401 anywhere starts the login flow (once, however many calls failed). */
export function redirectToSignIn(queryClient: QueryClient): Promise<void> {
  signInUnderway ??= (async () => {
    clearSession();
    const config = await queryClient.fetchQuery(signInConfigQueryOptions());
    await startSignIn(config);
  })().catch((error: unknown) => {
    // Allow a later attempt; on success the page is leaving anyway.
    signInUnderway = null;
    throw error;
  });
  return signInUnderway;
}

/** The user menu's Sign out: with the sign-in configuration from the cache (or the server). */
export async function signOutNow(queryClient: QueryClient): Promise<void> {
  const config = await queryClient.fetchQuery(signInConfigQueryOptions()).catch(() => null);
  if (config) return signOut(config);
  // Without the provider's address the server session still ends and the site starts over.
  await getLogout().catch(() => undefined);
  clearSignInData();
  assignLocation('/');
}
