const nonceKey = 'ledgerline.provider-authorisation';

/**
 * The browser's half of an authorisation's state: a random value kept in this tab's session
 * storage and carried in the state, so a return that this tab did not start is refused (a
 * forged return link cannot attach someone else's account).
 */
export function newAuthorisationNonce(): string {
  const nonce = crypto.randomUUID();
  window.sessionStorage.setItem(nonceKey, nonce);
  return nonce;
}

export function isOwnAuthorisation(nonce: string | undefined | null): boolean {
  return Boolean(nonce) && window.sessionStorage.getItem(nonceKey) === nonce;
}

export function forgetAuthorisation(): void {
  window.sessionStorage.removeItem(nonceKey);
}

/** spec 3 §4: state = configuration id (or empty) | mode (0 add, 1 edit) | test or live | nonce. */
export function stripeAuthoriseUrl(input: {
  authoriseUrl: string;
  clientId: string;
  isTestMode: boolean;
  configurationId: string | null;
}): string {
  const state = [
    input.configurationId ?? '',
    input.configurationId ? '1' : '0',
    input.isTestMode ? 'test' : 'live',
    newAuthorisationNonce(),
  ].join('|');
  const url = new URL(input.authoriseUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: input.clientId,
    scope: 'read_write',
    state,
    redirect_uri: `${window.location.origin}/stripe-connect/connect/oauth`,
  }).toString();
  return url.toString();
}
