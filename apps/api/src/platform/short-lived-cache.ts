import type { Database } from '../db/client.js';

/**
 * How long this process trusts what it has looked up: an access key (docs/decisions/016-access-keys-are-remembered-for-five-seconds.md
 * "Access keys are remembered for five seconds"), a company's facts for the payer page
 * (docs/decisions/078-the-payer-page-keeps-company-facts-briefly.md). A row deleted or changed
 * through another process is seen here at most this late; through this process, at once (forgetAll).
 */
export const shortLivedCacheMs = 5_000;
const maximumEntries = 10_000;

interface Entry<T> {
  value: T;
  expires: number;
}

/**
 * Answers of a look-up kept a few seconds and forgotten after any write: what an access key
 * resolved to, so a machine client's calls do not each pay for the look-up, or a company's facts
 * for the payer page. Positive answers only: an unknown or refused key is looked up every time. Every tenant
 * transaction that may write (Database.withTenant: every call that changes something, every
 * background job) makes it forget everything once it ended, and an answer looked up while such a
 * transaction was under way is not kept, so no revocation made by this process is outlived.
 */
export class ShortLivedCache<T> {
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
    this.entries.set(key, { value, expires: Date.now() + shortLivedCacheMs });
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }
}

const caches = new WeakMap<Database, ShortLivedCache<unknown>>();

/** The short-lived cache of one database, shared by the auth hook and the writers that clear it. */
export function shortLivedCacheOf<T>(database: Database): ShortLivedCache<T> {
  let cache = caches.get(database);
  if (!cache) {
    const created = new ShortLivedCache<unknown>();
    database.afterWrite(() => created.forgetAll());
    caches.set(database, created);
    cache = created;
  }
  return cache as ShortLivedCache<T>;
}
