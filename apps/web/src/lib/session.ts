import { local, storageKeys } from './storage';

/** spec 1 §1: inside a parent frame the session counts as authenticated and never expired. */
export function isEmbedded(): boolean {
  return window !== window.parent;
}

export function getSessionExpiry(): number | null {
  const stored = Number(local.get(storageKeys.sessionExpiresAt));
  return Number.isFinite(stored) && stored > 0 ? stored : null;
}

/** spec 1 §4: authenticated and not expired (the expiry is the access token's). */
export function isSessionActive(now: number = Date.now()): boolean {
  if (isEmbedded()) return true;
  const expiresAt = getSessionExpiry();
  return expiresAt !== null && expiresAt > now;
}

export function storeSession(expiresInSeconds: number, idToken: string | null, now = Date.now()) {
  local.set(storageKeys.sessionExpiresAt, String(now + expiresInSeconds * 1000));
  local.set(storageKeys.idToken, idToken);
  // A new session may be another person's, with other rights: no call of the last one is
  // asked for early (boot.js).
  local.set(storageKeys.firstCalls, null);
}

export function getIdToken(): string | null {
  return local.get(storageKeys.idToken);
}

export function clearSession(): void {
  local.set(storageKeys.sessionExpiresAt, null);
  local.set(storageKeys.idToken, null);
  local.set(storageKeys.firstCalls, null);
}
