import argon2 from 'argon2';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { uuidPattern } from '@ledgerline/contract';
import type { Database } from '../db/client.js';
import { idpAccounts, idpModels } from '../db/schema.js';
import { normalizeEmail, randomToken, sha256 } from '../platform/crypto.js';
import { secondsFromNow } from './model-adapter.js';

export const minimumPasswordLength = 8;
/** Longer inputs are refused before hashing so one request cannot buy minutes of CPU. */
export const maximumPasswordLength = 1024;

/**
 * Set-password tokens live in idp_models under their own model name: one expiring, single-use row
 * keyed by the token's SHA-256, swept with the provider's other expired rows. oidc-provider never
 * asks its adapter for this model name.
 */
const setPasswordTokenModel = 'SetPasswordToken';

export interface IdpAccount {
  id: string;
  email: string;
  name: string;
}

export class PasswordPolicyError extends Error {}

function checkPasswordPolicy(password: string): void {
  if (password.length < minimumPasswordLength) {
    throw new PasswordPolicyError(
      `The password must be at least ${minimumPasswordLength} characters.`,
    );
  }
  if (password.length > maximumPasswordLength) {
    throw new PasswordPolicyError(
      `The password must be at most ${maximumPasswordLength} characters.`,
    );
  }
}

// argon2id with the library's defaults (64 MiB, t=3, p=4): above OWASP's minimum for argon2id.
const hashPassword = (password: string) =>
  argon2.hash(normalizePassword(password), { type: argon2.argon2id });

/**
 * NIST SP 800-63B §5.1.1.2: the same password typed on another keyboard or OS may arrive in another
 * Unicode form; NFKC makes them one.
 */
function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

const accountColumns = { id: idpAccounts.id, email: idpAccounts.email, name: idpAccounts.name };

/** E-mail and password accounts of the embedded identity provider. */
export function createAccountService(database: Database) {
  const { db } = database;
  // Verified against when the e-mail is unknown, so both answers take an argon2 verify's time.
  // Made now, not at the first unknown e-mail, so that first answer is not slower than the rest.
  const dummyHash = hashPassword(randomToken());
  dummyHash.catch(() => undefined); // awaited (and its failure seen) in verifyPassword

  /** Ends the account's provider sessions: a new password must lock out whoever knew the old one. */
  async function endSessions(accountId: string): Promise<void> {
    await db
      .delete(idpModels)
      .where(
        and(eq(idpModels.model, 'Session'), sql`${idpModels.payload}->>'accountId' = ${accountId}`),
      );
  }

  const service = {
    async createAccount(input: {
      email: string;
      name: string;
      password?: string;
    }): Promise<IdpAccount> {
      if (input.password !== undefined) checkPasswordPolicy(input.password);
      const [account] = await db
        .insert(idpAccounts)
        .values({
          id: uuidv7(),
          email: input.email.trim(),
          emailNormalized: normalizeEmail(input.email),
          name: input.name.trim(),
          passwordHash: input.password === undefined ? null : await hashPassword(input.password),
        })
        .returning(accountColumns);
      return account!;
    },

    async findById(id: string): Promise<IdpAccount | null> {
      // An account id arrives from cookies and tokens; anything but a UUID cannot exist.
      if (!uuidPattern.test(id)) return null;
      const [account] = await db
        .select(accountColumns)
        .from(idpAccounts)
        .where(eq(idpAccounts.id, id));
      return account ?? null;
    },

    async findByEmail(email: string): Promise<IdpAccount | null> {
      const [account] = await db
        .select(accountColumns)
        .from(idpAccounts)
        .where(eq(idpAccounts.emailNormalized, normalizeEmail(email)));
      return account ?? null;
    },

    async setPassword(id: string, password: string): Promise<void> {
      checkPasswordPolicy(password);
      const passwordHash = await hashPassword(password);
      const updated = await db
        .update(idpAccounts)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(idpAccounts.id, id))
        .returning({ id: idpAccounts.id });
      if (updated.length === 0) throw new Error(`No identity provider account ${id}.`);
      await endSessions(id);
    },

    /** The account when the password is right; null otherwise, in about the same time either way. */
    async verifyPassword(email: string, password: string): Promise<IdpAccount | null> {
      if (password.length === 0 || password.length > maximumPasswordLength) return null;
      const [row] = await db
        .select({ ...accountColumns, passwordHash: idpAccounts.passwordHash })
        .from(idpAccounts)
        .where(eq(idpAccounts.emailNormalized, normalizeEmail(email)));
      const hash = row?.passwordHash ?? (await dummyHash);
      let matches = false;
      try {
        matches = await argon2.verify(hash, normalizePassword(password));
      } catch {
        matches = false;
      }
      if (!row?.passwordHash || !matches) return null;
      return { id: row.id, email: row.email, name: row.name };
    },

    /** A single-use link secret (invitations, resets); only its SHA-256 is stored. */
    async createSetPasswordToken(accountId: string, ttlHours: number): Promise<string> {
      if (!(ttlHours > 0)) throw new Error('ttlHours must be positive.');
      const token = randomToken(32);
      await db.insert(idpModels).values({
        model: setPasswordTokenModel,
        id: sha256(token),
        payload: { accountId },
        expiresAt: secondsFromNow(Math.round(ttlHours * 3600)),
      });
      return token;
    },

    /** The account a still-valid token is for, without using it up (to show the form). */
    async peekSetPasswordToken(token: string): Promise<IdpAccount | null> {
      const [row] = await db
        .select({ payload: idpModels.payload })
        .from(idpModels)
        .where(validToken(token));
      const accountId = (row?.payload as { accountId?: string } | undefined)?.accountId;
      return accountId ? service.findById(accountId) : null;
    },

    /**
     * Sets the password of the token's account and uses the token up. Null when the token is
     * unknown, expired or already used. A password that breaks the policy throws
     * PasswordPolicyError and leaves the token usable.
     */
    async consumeSetPasswordToken(token: string, password: string): Promise<IdpAccount | null> {
      checkPasswordPolicy(password);
      const passwordHash = await hashPassword(password);
      const accountId = await db.transaction(async (tx) => {
        const [used] = await tx
          .update(idpModels)
          .set({ consumedAt: sql`now()` })
          .where(validToken(token))
          .returning({ payload: idpModels.payload });
        const id = (used?.payload as { accountId?: string } | undefined)?.accountId;
        if (!id) return null;
        await tx
          .update(idpAccounts)
          .set({ passwordHash, updatedAt: sql`now()` })
          .where(eq(idpAccounts.id, id));
        // Other links sent to the same account are void once one of them has been used.
        await tx
          .delete(idpModels)
          .where(
            and(
              eq(idpModels.model, setPasswordTokenModel),
              isNull(idpModels.consumedAt),
              sql`${idpModels.payload}->>'accountId' = ${id}`,
            ),
          );
        return id;
      });
      if (!accountId) return null;
      await endSessions(accountId);
      return service.findById(accountId);
    },
  };
  return service;

  function validToken(token: string) {
    return and(
      eq(idpModels.model, setPasswordTokenModel),
      eq(idpModels.id, sha256(token)),
      isNull(idpModels.consumedAt),
      gt(idpModels.expiresAt, sql`now()`),
    );
  }
}

export type AccountService = ReturnType<typeof createAccountService>;
