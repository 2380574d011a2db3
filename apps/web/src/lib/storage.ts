import { defaultDatasetId } from '@ledgerline/contract';

/**
 * Every browser storage key of the site, in one place. Keys are namespaced so that a second app on
 * the same origin cannot collide with them.
 */
export const storageKeys = {
  /** spec 1 §1: the chosen company (dataset) id. */
  companyId: 'ledgerline.companyId',
  /** Session expiry (epoch ms), spec 1 §4: now plus expires_in seconds. */
  sessionExpiresAt: 'ledgerline.auth.expiresAt',
  /** Kept for the provider's end-session call (id_token_hint). */
  idToken: 'ledgerline.auth.idToken',
  /** The sign-in in flight (per tab): PKCE verifier, state and the address to come back to. */
  codeVerifier: 'ledgerline.auth.codeVerifier',
  state: 'ledgerline.auth.state',
  returnTo: 'ledgerline.auth.returnTo',
} as const;

/** Storage can throw (private mode, disabled cookies): treat that as "nothing stored". */
function read(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function write(storage: Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Nothing to do: the value simply does not survive a reload.
  }
}

export const local = {
  get: (key: string) => read(window.localStorage, key),
  set: (key: string, value: string | null) => write(window.localStorage, key, value),
};

export const session = {
  get: (key: string) => read(window.sessionStorage, key),
  set: (key: string, value: string | null) => write(window.sessionStorage, key, value),
};

// --- company (dataset) id -------------------------------------------------------------------

const companyListeners = new Set<() => void>();

export function getCompanyId(): number {
  const stored = Number(local.get(storageKeys.companyId));
  return Number.isInteger(stored) && stored > 0 ? stored : defaultDatasetId;
}

export function setCompanyId(id: number): void {
  local.set(storageKeys.companyId, String(id));
  companyListeners.forEach((listener) => listener());
}

export function subscribeCompanyId(listener: () => void): () => void {
  companyListeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKeys.companyId) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    companyListeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
