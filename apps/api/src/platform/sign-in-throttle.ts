import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { signInThrottles } from '../db/schema.js';
import { normalizeEmail, sha256 } from './crypto.js';

/**
 * Sign-in throttles in the database, so every API process counts the same attempts
 * (docs/decisions/031-sign-in-throttles.md "Sign-in throttles").
 *
 * - Per address: at most `max` attempts a minute from one IP address at each place that takes a
 *   credential (a fixed window).
 * - Per account: a growing delay, never a lockout (OWASP ASVS V6). The first few attempts since the
 *   account's last success are free; after that each attempt must wait 1, 2, 4 … seconds after the
 *   one before, at most a minute. An attempt made too early is refused before the password is
 *   looked at, and does not count. A success starts over, and so do 15 quiet minutes. The account
 *   is named by its e-mail address, whether or not such an account exists, so the answer says
 *   nothing about that.
 */
export const freeAttemptsPerAccount = 5;
export const longestAccountDelaySeconds = 60;
const accountQuietMinutes = 15;

export interface ThrottleAnswer {
  allowed: boolean;
  /** Seconds until an attempt would be taken again (when refused). */
  retryAfterSeconds: number;
}

export interface SignInThrottle {
  /** Counts an attempt from an address at one place (`where`); refused past the minute's limit. */
  address(where: string, ip: string): Promise<ThrottleAnswer>;
  /** Takes an attempt for the account of an e-mail address, or refuses it while it must wait. */
  account(email: string): Promise<ThrottleAnswer>;
  /**
   * The account's attempt failed: its delay runs from now, after the password check, however long
   * that took.
   */
  failed(email: string): Promise<void>;
  /** The account's attempt succeeded: its count starts over. */
  succeeded(email: string): Promise<void>;
}

/** When the account may try again after its attempt number `attempts`: null while still free. */
function delayAfter(attempts: SQL | AnyColumn): SQL {
  return sql`case when (${attempts}) >= ${freeAttemptsPerAccount}
    then now() + make_interval(secs => least(power(2, (${attempts}) - ${freeAttemptsPerAccount}), ${longestAccountDelaySeconds}))
    end`;
}

const accountKey = (email: string) => `account:${sha256(normalizeEmail(email))}`;

export function createSignInThrottle(
  database: Database,
  options: { perAddressPerMinute: number },
): SignInThrottle {
  const { db } = database;
  const t = signInThrottles;
  let nextSweep = 0;

  // Expired rows go at most every ten minutes, with the statement of some attempt's process.
  async function sweep() {
    if (Date.now() < nextSweep) return;
    nextSweep = Date.now() + 600_000;
    await db.delete(t).where(sql`${t.resetAt} < now() - interval '1 hour'`);
  }

  async function waitOf(key: string): Promise<number> {
    const [row] = await db
      .select({
        seconds: sql<number>`ceil(extract(epoch from (${t.nextAttemptAt} - now())))::int`,
      })
      .from(t)
      .where(eq(t.key, key));
    return Math.max(1, row?.seconds ?? 1);
  }

  return {
    async address(where, ip) {
      await sweep();
      const [row] = await db
        .insert(t)
        .values({
          key: `ip:${where}:${ip}`,
          attempts: 1,
          resetAt: sql`now() + interval '1 minute'`,
        })
        .onConflictDoUpdate({
          target: t.key,
          set: {
            attempts: sql`case when ${t.resetAt} <= now() then 1 else ${t.attempts} + 1 end`,
            resetAt: sql`case when ${t.resetAt} <= now() then now() + interval '1 minute' else ${t.resetAt} end`,
          },
        })
        .returning({
          attempts: t.attempts,
          seconds: sql<number>`ceil(extract(epoch from (${t.resetAt} - now())))::int`,
        });
      return {
        allowed: row!.attempts <= options.perAddressPerMinute,
        retryAfterSeconds: Math.max(1, row!.seconds),
      };
    },

    async account(email) {
      const key = accountKey(email);
      // One statement takes the attempt only if the account may try now, so attempts sent
      // together cannot all slip in before the first is counted.
      const fresh = sql`${t.resetAt} <= now()`;
      const attempts = sql`case when ${fresh} then 1 else ${t.attempts} + 1 end`;
      const [taken] = await db
        .insert(t)
        .values({
          key,
          attempts: 1,
          resetAt: sql`now() + make_interval(mins => ${accountQuietMinutes})`,
        })
        .onConflictDoUpdate({
          target: t.key,
          set: {
            attempts,
            resetAt: sql`now() + make_interval(mins => ${accountQuietMinutes})`,
            nextAttemptAt: delayAfter(attempts),
          },
          setWhere: sql`${fresh} or ${t.nextAttemptAt} is null or ${t.nextAttemptAt} <= now()`,
        })
        .returning({ attempts: t.attempts });
      if (taken) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: await waitOf(key) };
    },

    async failed(email) {
      await db
        .update(t)
        .set({ nextAttemptAt: delayAfter(t.attempts) })
        .where(eq(t.key, accountKey(email)));
    },

    async succeeded(email) {
      await db.delete(t).where(eq(t.key, accountKey(email)));
    },
  };
}

export function accountWaitMessage(seconds: number): string {
  return `Too many failed sign-in attempts for this account. Try again in ${seconds} seconds.`;
}
