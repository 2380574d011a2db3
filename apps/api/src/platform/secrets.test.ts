import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createSecretBox,
  describeSecretsKey,
  generateSecretsKey,
  keyIdOf,
  loadSecretsKey,
  parseSecretsKey,
} from './secrets.js';

const folder = mkdtempSync(join(tmpdir(), 'ledgerline-secrets-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('sealed secrets (AES-256-GCM)', () => {
  const box = createSecretBox(parseSecretsKey(generateSecretsKey()));

  it('opens what it sealed; each seal differs (fresh IV); the text is not in the seal', () => {
    const a = box.seal('{"password":"hunter2"}');
    const b = box.seal('{"password":"hunter2"}');
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter2');
    expect(a.split('.')[1]).toBe(box.keyId);
    expect(box.open(a)).toBe('{"password":"hunter2"}');
  });

  it('refuses a tampered seal and a seal of another key', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[4]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      box.open([...parts.slice(0, 4), flipped.toString('base64url')].join('.')),
    ).toThrow();
    const other = createSecretBox(parseSecretsKey(generateSecretsKey()));
    expect(() => other.open(sealed)).toThrow(/sealed with key/);
  });

  it('wants a 32-byte key', () => {
    expect(() => parseSecretsKey(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});

describe('the key: SECRETS_KEY or the data folder key file', () => {
  it('SECRETS_KEY wins and no file is written', () => {
    const key = generateSecretsKey();
    const source = loadSecretsKey({ SECRETS_KEY: key, DATA_DIR: join(folder, 'env') });
    expect(source).toMatchObject({ origin: 'SECRETS_KEY', file: null, created: false });
    expect(describeSecretsKey(source)).toBe(
      `Provider credentials are encrypted with SECRETS_KEY (key id ${keyIdOf(parseSecretsKey(key))}).`,
    );
    expect(describeSecretsKey(source)).not.toContain(key);
  });

  it('without it, a key file is made once with mode 0600 and said so; later starts reuse it', () => {
    const dataDir = join(folder, 'data');
    const made = loadSecretsKey({ DATA_DIR: dataDir });
    const file = join(dataDir, 'secrets.key');
    expect(made).toMatchObject({ origin: 'key file', file, created: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(describeSecretsKey(made)).toContain(`created ${file} (mode 0600)`);
    expect(describeSecretsKey(made)).not.toContain(readFileSync(file, 'utf8').trim());
    const again = loadSecretsKey({ DATA_DIR: dataDir });
    expect(again.created).toBe(false);
    expect(again.key.equals(made.key)).toBe(true);
  });
});
