import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { createTestDatabase } from '../../test/database.js';
import { idpAccounts, idpModels } from '../db/schema.js';
import { sha256 } from '../platform/crypto.js';
import { createAccountService, PasswordPolicyError, type AccountService } from './accounts.js';
import { DatabaseModelAdapter } from './model-adapter.js';

describe('identity provider accounts', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let accounts: AccountService;

  beforeAll(async () => {
    ({ database, dispose } = await createTestDatabase());
    accounts = createAccountService(database);
  });

  afterAll(async () => {
    await dispose?.();
  });

  it('stores e-mails trimmed, NFC and lower-case, and an argon2id hash', async () => {
    // "é" written as e + combining accent normalises to the single code point.
    const account = await accounts.createAccount({
      email: '  Rene\u0301.Descartes@Example.COM ',
      name: ' René ',
      password: 'cogito ergo sum',
    });
    expect(account.email).toBe('Rene\u0301.Descartes@Example.COM');
    expect(account.name).toBe('René');
    const [row] = await database.db
      .select()
      .from(idpAccounts)
      .where(eq(idpAccounts.id, account.id));
    expect(row!.emailNormalized).toBe('rené.descartes@example.com');
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await accounts.findByEmail('RENÉ.descartes@example.com'))?.id).toBe(account.id);
    await expect(
      accounts.createAccount({ email: 'rené.descartes@example.com', name: 'Twin' }),
    ).rejects.toThrow();
  });

  it('verifies passwords and answers null for unknown e-mails and accounts without one', async () => {
    const account = await accounts.createAccount({
      email: 'kant@example.com',
      name: 'Kant',
      password: 'categorical',
    });
    expect(await accounts.verifyPassword('KANT@example.com', 'categorical')).toEqual({
      id: account.id,
      email: 'kant@example.com',
      name: 'Kant',
    });
    expect(await accounts.verifyPassword('kant@example.com', 'Categorical')).toBeNull();
    expect(await accounts.verifyPassword('kant@example.com', '')).toBeNull();
    expect(await accounts.verifyPassword('nobody@example.com', 'categorical')).toBeNull();
    await accounts.createAccount({ email: 'invited@example.com', name: 'Invited' });
    expect(await accounts.verifyPassword('invited@example.com', 'anything at all')).toBeNull();
    // The same password typed in another Unicode form (decomposed é) still matches.
    await accounts.createAccount({
      email: 'cafe@example.com',
      name: 'Café',
      password: 'caf\u00e9 au lait',
    });
    expect(await accounts.verifyPassword('cafe@example.com', 'cafe\u0301 au lait')).not.toBeNull();
  });

  it('takes about as long for an unknown e-mail as for a wrong password', async () => {
    await accounts.verifyPassword('warm-up@example.com', 'password'); // the dummy hash is ready
    const time = async (email: string) => {
      const start = performance.now();
      await accounts.verifyPassword(email, 'wrong password');
      return performance.now() - start;
    };
    const known = await time('kant@example.com');
    const unknown = await time('nobody-at-all@example.com');
    // Both run one argon2 verify; without the dummy the unknown one would take ~1 ms.
    expect(unknown).toBeGreaterThan(known / 4);
  });

  it('sets a password of at least 8 characters and ends the account’s provider sessions', async () => {
    const account = await accounts.createAccount({ email: 'hume@example.com', name: 'Hume' });
    await expect(accounts.setPassword(account.id, 'short')).rejects.toBeInstanceOf(
      PasswordPolicyError,
    );
    const sessions = new DatabaseModelAdapter(database, 'Session');
    await sessions.upsert('session-1', { accountId: account.id, uid: 'uid-1' }, 3600);
    await sessions.upsert('session-2', { accountId: 'someone-else', uid: 'uid-2' }, 3600);

    await accounts.setPassword(account.id, 'a new password');
    expect(await accounts.verifyPassword('hume@example.com', 'a new password')).not.toBeNull();
    expect(await sessions.find('session-1')).toBeUndefined();
    expect(await sessions.find('session-2')).toBeDefined();
    await expect(
      accounts.setPassword('0190c6f6-0000-7000-8000-000000000000', 'a new password'),
    ).rejects.toThrow();
  });

  it('keeps only a hash of a set-password token and honours it once', async () => {
    const account = await accounts.createAccount({ email: 'locke@example.com', name: 'Locke' });
    const token = await accounts.createSetPasswordToken(account.id, 72);
    const other = await accounts.createSetPasswordToken(account.id, 72);
    const stored = await database.db
      .select()
      .from(idpModels)
      .where(eq(idpModels.id, sha256(token)));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored[0])).not.toContain(token);

    expect((await accounts.peekSetPasswordToken(token))?.id).toBe(account.id);
    // A password that breaks the policy leaves the token usable.
    await expect(accounts.consumeSetPasswordToken(token, 'short')).rejects.toBeInstanceOf(
      PasswordPolicyError,
    );
    expect((await accounts.consumeSetPasswordToken(token, 'tabula rasa'))?.id).toBe(account.id);
    expect(await accounts.verifyPassword('locke@example.com', 'tabula rasa')).not.toBeNull();

    expect(await accounts.consumeSetPasswordToken(token, 'tabula rasa 2')).toBeNull();
    expect(await accounts.peekSetPasswordToken(token)).toBeNull();
    // Every other link of the account is void once one was used.
    expect(await accounts.consumeSetPasswordToken(other, 'tabula rasa 3')).toBeNull();
    expect(await accounts.verifyPassword('locke@example.com', 'tabula rasa')).not.toBeNull();
    expect(await accounts.peekSetPasswordToken('not-a-token')).toBeNull();
  });

  it('refuses an expired set-password token', async () => {
    const account = await accounts.createAccount({
      email: 'berkeley@example.com',
      name: 'Berkeley',
    });
    const token = await accounts.createSetPasswordToken(account.id, 1);
    await database.db
      .update(idpModels)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(idpModels.model, 'SetPasswordToken'), eq(idpModels.id, sha256(token))));
    expect(await accounts.peekSetPasswordToken(token)).toBeNull();
    expect(await accounts.consumeSetPasswordToken(token, 'esse est percipi')).toBeNull();
    expect(await accounts.verifyPassword('berkeley@example.com', 'esse est percipi')).toBeNull();
    await expect(accounts.createSetPasswordToken(account.id, 0)).rejects.toThrow();
  });
});
