import type { Database } from '../db/client.js';

/**
 * How long this process trusts an access key it has looked up (docs/decisions/016-access-keys-are-remembered-for-five-seconds.md "Access keys
 * are remembered for five seconds"). A key deleted or changed through another process keeps
 * working here for at most this long; through this process, at once (forgetAll).
 */
export const credentialCacheMs = 5_000;
const maximumEntries = 10_000;

interface Entry<T> {
  value: T;
  expires: number;
}

/**
 * What an access key resolved to, kept briefly so a machine client's calls do not each pay for the
 * look-up. Positive answers only: an unknown or refused key is looked up every time. Every tenant
 * transaction that may write (Database.withTenant: every call that changes something, every
 * background job) makes it forget everything once it ended, and an answer looked up while such a
 * transaction was under way is not kept, so no revocation made by this process is outlived.
 */
export class CredentialCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;

  /** The generation to hand to `set` for an answer looked up from now on. */
  begin(): number {
    return this.generation;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, generation: number): void {
    if (generation !== this.generation) return;
    if (this.entries.size >= maximumEntries) this.entries.clear();
    this.entries.set(key, { value, expires: Date.now() + credentialCacheMs });
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }
}

const caches = new WeakMap<Database, CredentialCache<unknown>>();

/** The cache of one database's credentials, shared by the auth hook and the writers that clear it. */
export function credentialCacheOf<T>(database: Database): CredentialCache<T> {
  let cache = caches.get(database);
  if (!cache) {
    const created = new CredentialCache<unknown>();
    database.afterWrite(() => created.forgetAll());
    caches.set(database, created);
    cache = created;
  }
  return cache as CredentialCache<T>;
}
