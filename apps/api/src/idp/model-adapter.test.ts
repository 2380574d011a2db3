import { sql } from 'drizzle-orm';
import { errors } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { createTestDatabase } from '../../test/database.js';
import { idpModels } from '../db/schema.js';
import { loadIdentityProviderSecrets, publicKeySet } from './keys.js';
import { DatabaseModelAdapter, deleteExpiredModels } from './model-adapter.js';

describe('identity provider storage', () => {
  let database: Database;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ database, dispose } = await createTestDatabase());
  });

  afterAll(async () => {
    await dispose?.();
  });

  it('upserts, finds and destroys payloads per model', async () => {
    const grants = new DatabaseModelAdapter(database, 'Grant');
    const codes = new DatabaseModelAdapter(database, 'AuthorizationCode');
    await grants.upsert('same-id', { accountId: 'a', kind: 'Grant' }, 60);
    await codes.upsert('same-id', { accountId: 'b', kind: 'AuthorizationCode' }, 60);
    expect(await grants.find('same-id')).toEqual({ accountId: 'a', kind: 'Grant' });
    await grants.upsert('same-id', { accountId: 'c', kind: 'Grant' }, 60);
    expect(await grants.find('same-id')).toEqual({ accountId: 'c', kind: 'Grant' });
    expect(await codes.find('same-id')).toEqual({ accountId: 'b', kind: 'AuthorizationCode' });
    await grants.destroy('same-id');
    expect(await grants.find('same-id')).toBeUndefined();
    expect(await codes.find('same-id')).toBeDefined();
  });

  it('finds sessions by uid and device codes by user code', async () => {
    const sessions = new DatabaseModelAdapter(database, 'Session');
    await sessions.upsert('session-id', { uid: 'the-uid', accountId: 'a' }, 60);
    expect(await sessions.findByUid('the-uid')).toMatchObject({ accountId: 'a' });
    expect(
      await new DatabaseModelAdapter(database, 'Interaction').findByUid('the-uid'),
    ).toBeUndefined();
    const devices = new DatabaseModelAdapter(database, 'DeviceCode');
    await devices.upsert('device-id', { userCode: 'ABCD-EFGH' }, 60);
    expect(await devices.findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH' });
  });

  it('consumes a code once and reports when it was consumed', async () => {
    const codes = new DatabaseModelAdapter(database, 'AuthorizationCode');
    await codes.upsert('code-1', { grantId: 'g1' }, 60);
    expect((await codes.find('code-1'))?.consumed).toBeUndefined();
    await codes.consume('code-1');
    const consumed = await codes.find('code-1');
    expect(consumed?.consumed).toBeGreaterThan(Date.now() / 1000 - 60);
    // A second consumer (another process racing for the same code) is refused.
    await expect(codes.consume('code-1')).rejects.toBeInstanceOf(errors.InvalidGrant);
  });

  it('revokes every token of a grant and nothing else', async () => {
    const codes = new DatabaseModelAdapter(database, 'AuthorizationCode');
    const tokens = new DatabaseModelAdapter(database, 'AccessToken');
    const grants = new DatabaseModelAdapter(database, 'Grant');
    await codes.upsert('code-g2', { grantId: 'g2' }, 60);
    await tokens.upsert('token-g2', { grantId: 'g2' }, 60);
    await tokens.upsert('token-g3', { grantId: 'g3' }, 60);
    await grants.upsert('g2', { accountId: 'a' }, 60);
    await codes.revokeByGrantId('g2');
    expect(await codes.find('code-g2')).toBeUndefined();
    expect(await tokens.find('token-g2')).toBeUndefined();
    expect(await tokens.find('token-g3')).toBeDefined();
    expect(await grants.find('g2')).toBeDefined();
  });

  it('treats expired rows as absent and sweeps them', async () => {
    const interactions = new DatabaseModelAdapter(database, 'Interaction');
    await interactions.upsert('old', { uid: 'old' }, 60);
    await interactions.upsert('forever', { uid: 'forever' });
    await database.db
      .update(idpModels)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(sql`${idpModels.id} = 'old'`);
    expect(await interactions.find('old')).toBeUndefined();
    expect(await interactions.find('forever')).toBeDefined();
    expect(await deleteExpiredModels(database)).toBeGreaterThanOrEqual(1);
    const left = await database.db
      .select({ id: idpModels.id })
      .from(idpModels)
      .where(sql`${idpModels.id} = 'old'`);
    expect(left).toHaveLength(0);
  });

  it('makes the signing and cookie keys once, even when several processes start together', async () => {
    const [a, b, c] = await Promise.all([
      loadIdentityProviderSecrets(database),
      loadIdentityProviderSecrets(database),
      loadIdentityProviderSecrets(database),
    ]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await loadIdentityProviderSecrets(database)).toEqual(a);
    expect(a!.signingKeys.keys.map((k) => k.alg)).toEqual(['RS256', 'ES256']);
    expect(a!.cookieKeys[0]!.length).toBeGreaterThanOrEqual(32);

    const published = publicKeySet(a!.signingKeys);
    for (const key of published.keys) {
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi'])
        expect(key).not.toHaveProperty(secret);
      expect(key.kid).toBeTruthy();
      expect(key.use).toBe('sig');
    }
  });
});
