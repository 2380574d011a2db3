import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import type { Database } from '../db/client.js';
import { idpSecrets } from '../db/schema.js';

/** Rows of idp_secrets this module owns. */
export const signingKeysSecret = 'oidc-signing-keys';
export const cookieKeysSecret = 'oidc-cookie-keys';

/** RS256 first: it is what oidc-provider signs ID tokens and JWT access tokens with by default. */
const signingAlgorithms = ['RS256', 'ES256'] as const;

/** The members of a private JWK that may be published; everything else (d, p, q, dp, dq, qi) is secret. */
const publicMembers = ['kty', 'kid', 'alg', 'use', 'n', 'e', 'crv', 'x', 'y'] as const;

export interface IdentityProviderSecrets {
  /** Private JWKs, as oidc-provider's `jwks` configuration takes them. */
  signingKeys: JSONWebKeySet;
  /** Keys that sign oidc-provider's cookies (Koa keygrip); the first one signs. */
  cookieKeys: string[];
}

async function readSecret(database: Database, name: string): Promise<unknown> {
  const [row] = await database.db
    .select({ value: idpSecrets.value })
    .from(idpSecrets)
    .where(eq(idpSecrets.name, name));
  return row?.value;
}

/**
 * Returns the stored secret, creating it on the first start. Several API processes may start
 * together: each makes a candidate, one insert wins (on conflict do nothing), and every process
 * then uses the row that was stored, never its own candidate.
 */
async function readOrCreateSecret<T>(
  database: Database,
  name: string,
  isValid: (value: unknown) => value is T,
  create: () => Promise<T>,
): Promise<T> {
  const existing = await readSecret(database, name);
  if (existing !== undefined) {
    if (!isValid(existing))
      throw new Error(`The stored identity provider secret ${name} is malformed.`);
    return existing;
  }
  await database.db
    .insert(idpSecrets)
    .values({ name, value: await create() })
    .onConflictDoNothing({ target: idpSecrets.name });
  const stored = await readSecret(database, name);
  if (!isValid(stored)) throw new Error(`Could not store the identity provider secret ${name}.`);
  return stored;
}

async function createSigningKey(alg: (typeof signingAlgorithms)[number]): Promise<JWK> {
  // extractable: the private key is exported once, to be stored and shared by every API process.
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: 'sig' };
}

function isSigningKeySet(value: unknown): value is JSONWebKeySet {
  const keys = (value as JSONWebKeySet | null)?.keys;
  return (
    Array.isArray(keys) &&
    keys.length > 0 &&
    keys.every((k) => typeof k.kty === 'string' && typeof k.kid === 'string' && 'd' in k)
  );
}

function isCookieKeys(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((k) => typeof k === 'string' && k.length >= 32)
  );
}

/** The provider's signing keys and cookie keys, from idp_secrets (made at first start). */
export async function loadIdentityProviderSecrets(
  database: Database,
): Promise<IdentityProviderSecrets> {
  const signingKeys = await readOrCreateSecret(
    database,
    signingKeysSecret,
    isSigningKeySet,
    async () => ({
      keys: await Promise.all(signingAlgorithms.map((alg) => createSigningKey(alg))),
    }),
  );
  const cookieKeys = await readOrCreateSecret(
    database,
    cookieKeysSecret,
    isCookieKeys,
    async () => [randomBytes(32).toString('base64url')],
  );
  return { signingKeys, cookieKeys };
}

/** The public half of a private key set: what the jwks endpoint publishes and the API verifies with. */
export function publicKeySet(privateKeys: JSONWebKeySet): JSONWebKeySet {
  return {
    keys: privateKeys.keys.map((key) => {
      const publicKey: JWK = {};
      for (const member of publicMembers) {
        if (key[member] !== undefined) publicKey[member] = key[member];
      }
      return publicKey;
    }),
  };
}
