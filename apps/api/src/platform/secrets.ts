import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Provider credentials at rest (design §5): AES-256-GCM under SECRETS_KEY. A sealed value is
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts); the key id (the first bytes of the key's
 * SHA-256) tells which key sealed it, so a rotation can tell old values from new.
 */
export interface SecretBox {
  readonly keyId: string;
  seal(plain: string): string;
  open(sealed: string): string;
}

export const secretsKeyFileName = 'secrets.key';

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

export function parseSecretsKey(text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32)
    throw new Error('SECRETS_KEY must be 32 bytes, base64 encoded (openssl rand -base64 32).');
  return key;
}

export function generateSecretsKey(): string {
  return randomBytes(32).toString('base64');
}

export function createSecretBox(key: Buffer): SecretBox {
  const keyId = keyIdOf(key);
  return {
    keyId,
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
      return ['v1', keyId, ...parts].join('.');
    },
    open(sealed) {
      const [version, sealedKeyId, iv, tag, ciphertext] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined) {
        throw new Error('A sealed secret is malformed.');
      }
      if (sealedKeyId !== keyId) {
        throw new Error(
          `A secret was sealed with key ${sealedKeyId}, not the configured key ${keyId}: set SECRETS_KEY to the key it was sealed with, or rotate with the old key.`,
        );
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

export interface SecretsKeySource {
  key: Buffer;
  /** Where the key came from, for the start-up line; never the key itself. */
  origin: 'SECRETS_KEY' | 'key file';
  file: string | null;
  created: boolean;
}

/**
 * SECRETS_KEY when set; otherwise the embedded default: a key file in the data folder, made on
 * first use with mode 0600 (design §5, docs/decisions/046-provider-credentials-at-rest.md "Provider credentials at rest").
 */
export function loadSecretsKey(config: {
  SECRETS_KEY?: string;
  DATA_DIR: string;
}): SecretsKeySource {
  if (config.SECRETS_KEY)
    return {
      key: parseSecretsKey(config.SECRETS_KEY),
      origin: 'SECRETS_KEY',
      file: null,
      created: false,
    };
  const file = join(config.DATA_DIR, secretsKeyFileName);
  if (existsSync(file))
    return {
      key: parseSecretsKey(readFileSync(file, 'utf8')),
      origin: 'key file',
      file,
      created: false,
    };
  mkdirSync(config.DATA_DIR, { recursive: true });
  writeFileSync(file, `${generateSecretsKey()}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return {
    key: parseSecretsKey(readFileSync(file, 'utf8')),
    origin: 'key file',
    file,
    created: true,
  };
}

/** The start-up line that says which key protects provider credentials. */
export function describeSecretsKey(source: SecretsKeySource): string {
  if (source.origin === 'SECRETS_KEY')
    return `Provider credentials are encrypted with SECRETS_KEY (key id ${keyIdOf(source.key)}).`;
  return source.created
    ? `SECRETS_KEY is not set: created ${source.file} (mode 0600) to encrypt provider credentials (key id ${keyIdOf(source.key)}). Back it up with the database; set SECRETS_KEY in production.`
    : `SECRETS_KEY is not set: provider credentials are encrypted with the key in ${source.file} (key id ${keyIdOf(source.key)}).`;
}
