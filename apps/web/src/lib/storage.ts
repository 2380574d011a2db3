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
  /**
   * The addresses the first screen of each path asked for (lib/first-calls.ts),
   * read by boot.js; forgotten when a session starts or ends, as they were another person's.
   */
  firstCalls: 'ledgerline.firstCalls',
  /** spec 3 §2 embedded view: the limited view's settings, per tab (session storage). */
  websiteView: 'ledgerline.websiteView',
} as const;

/**
 * Where Web Storage cannot be used: a third-party frame in a browser that blocks third-party
 * storage (Chromium's Incognito and Debian's default, Safari, Firefox strict) throws on reading
 * `window.localStorage`. There a value goes into a partitioned cookie (CHIPS), which such a
 * browser still keeps for the frame under its parent site, so a sign-in started in the frame
 * finds its PKCE state on return (docs/decisions/069-a-framed-site-s-session.md, "A framed site's session"). Without a secure
 * context the browser refuses it too, and the value lives in memory for the life of the page.
 */
function partitionedCookieStore(prefix: string, persistent: boolean) {
  const memory = new Map<string, string>();
  const name = (key: string) => `${prefix}${key}`;
  return {
    get(key: string): string | null {
      const wanted = `${name(key)}=`;
      const found = document.cookie
        .split('; ')
        .find((part) => part.startsWith(wanted))
        ?.slice(wanted.length);
      if (found) return decodeURIComponent(found);
      return memory.get(key) ?? null;
    },
    set(key: string, value: string | null): void {
      if (value === null) memory.delete(key);
      else memory.set(key, value);
      const life = value === null ? '; Max-Age=0' : persistent ? '; Max-Age=31536000' : '';
      document.cookie = `${name(key)}=${value === null ? '' : encodeURIComponent(value)}; Path=/; Secure; SameSite=None; Partitioned${life}`;
    },
  };
}

function storageArea(area: () => Storage, fallback: ReturnType<typeof partitionedCookieStore>) {
  const storage = (): Storage | null => {
    try {
      return area();
    } catch {
      return null;
    }
  };
  return {
    get(key: string): string | null {
      const stored = storage();
      if (!stored) return fallback.get(key);
      try {
        return stored.getItem(key);
      } catch {
        return null;
      }
    },
    set(key: string, value: string | null): void {
      const stored = storage();
      if (!stored) return fallback.set(key, value);
      try {
        if (value === null) stored.removeItem(key);
        else stored.setItem(key, value);
      } catch {
        // Nothing to do: the value simply does not survive a reload.
      }
    },
  };
}

export const local = storageArea(
  () => window.localStorage,
  partitionedCookieStore('ledgerline-local.', true),
);

export const session = storageArea(
  () => window.sessionStorage,
  partitionedCookieStore('ledgerline-session.', false),
);

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
