import {
  createPrivateKey,
  createPublicKey,
  sign as signPayload,
  verify as verifySignature,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { headerOf } from '../checkout-support.js';
import { providerFetch } from '../http.js';

/** The JOSE header of a Tl-Signature (TrueLayer request signing, version 2). */
export interface TlJwsHeader {
  alg?: string;
  kid?: string;
  jku?: string;
  tl_version?: string;
  /** The signed headers' names, comma separated, in the order they are signed. */
  tl_headers?: string;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * What a Tl-Signature covers (truelayer-signing, tl_version 2): `METHOD path\n`, then
 * `Name: value\n` for each header named in tl_headers, in that order, then the body.
 */
export function tlSigningPayload(
  method: string,
  path: string,
  headers: [string, string][],
  body: Buffer,
): Buffer {
  const lines = [`${method.toUpperCase()} ${path}\n`, ...headers.map(([n, v]) => `${n}: ${v}\n`)];
  return Buffer.concat([Buffer.from(lines.join('')), body]);
}

/**
 * A Tl-Signature for a request Ledgerline sends (truelayer-signing v2, as TrueLayer's libraries
 * make it): a detached ES512 JWS with the merchant's signing key (`kid` = its id in TrueLayer's
 * console) over the method, path, each named header and the body.
 */
export function tlSignRequest(input: {
  privateKeyPem: string;
  keyId: string;
  method: string;
  path: string;
  headers: [string, string][];
  body: string;
}): string {
  const key = createPrivateKey(input.privateKeyPem);
  const header = b64url(
    JSON.stringify({
      alg: 'ES512',
      kid: input.keyId,
      tl_version: '2',
      tl_headers: input.headers.map(([name]) => name).join(','),
    }),
  );
  const payload = tlSigningPayload(
    input.method,
    input.path,
    input.headers,
    Buffer.from(input.body),
  );
  const signature = signPayload('sha512', Buffer.from(`${header}.${b64url(payload)}`), {
    key,
    dsaEncoding: 'ieee-p1363',
  });
  return `${header}..${b64url(signature)}`;
}

/**
 * Whether `pem` is an EC private key on P-521, the only kind TrueLayer signs with (ES512): the
 * configuration refuses any other key when it is saved, not at the first refund.
 */
export function isP521PrivateKey(pem: string): boolean {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'secp521r1';
  } catch {
    return false;
  }
}

export type TlVerification = { ok: true } | { ok: false; reason: string; retry?: boolean };

interface Jwks {
  keys?: (JsonWebKey & { kid?: string })[];
}

/**
 * Verifies TrueLayer webhook signatures: a detached ES512 JWS whose header names the JWKS (`jku`)
 * holding its key. The jku must be one of `allowedJwks` (TRUELAYER_JWKS_URL), so a forger cannot
 * point at keys of their own; the key set is cached for ten minutes and read again for an
 * unknown kid.
 */
export function createTlSignatureVerifier(options: {
  allowedJwks: string[];
  timeoutMs: number;
  now?: () => number;
  /** Headers every signature must cover (the webhook timestamp, so freshness is signed too). */
  mustSign?: string[];
}) {
  const now = options.now ?? Date.now;
  const cache = new Map<string, { at: number; keys: Map<string, KeyObject> }>();
  const allowed = new Set(options.allowedJwks.map((url) => url.trim()).filter(Boolean));

  async function keysOf(jku: string, fresh: boolean): Promise<Map<string, KeyObject>> {
    const cached = cache.get(jku);
    if (cached && !fresh && now() - cached.at < 600_000) return cached.keys;
    const answer = await providerFetch('TrueLayer', jku, {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: options.timeoutMs,
    });
    const body = answer.json<Jwks>();
    if (answer.status !== 200 || !Array.isArray(body?.keys))
      throw new Error(`TrueLayer's JWKS answered HTTP ${answer.status}.`);
    const keys = new Map<string, KeyObject>();
    for (const jwk of body.keys) {
      if (!jwk.kid || jwk.kty !== 'EC') continue;
      try {
        keys.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
      } catch {
        // A key Node cannot read is skipped; a signature by it fails as unknown.
      }
    }
    cache.set(jku, { at: now(), keys });
    return keys;
  }

  return async function verifyTlSignature(input: {
    signature: string | undefined;
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }): Promise<TlVerification> {
    if (!input.signature) return { ok: false, reason: 'Missing Tl-Signature header.' };
    const [headerB64, empty, signatureB64] = input.signature.split('.');
    if (!headerB64 || empty !== '' || !signatureB64 || input.signature.split('.').length !== 3)
      return { ok: false, reason: 'Tl-Signature is not a detached JWS.' };
    let header: TlJwsHeader;
    try {
      header = JSON.parse(Buffer.from(headerB64, 'base64url').toString('utf8')) as TlJwsHeader;
    } catch {
      return { ok: false, reason: 'Tl-Signature header is not JSON.' };
    }
    if (header.alg !== 'ES512') return { ok: false, reason: 'Tl-Signature must be ES512.' };
    if (header.tl_version !== '2')
      return { ok: false, reason: 'Unsupported Tl-Signature version.' };
    if (!header.jku || !allowed.has(header.jku))
      return { ok: false, reason: 'Tl-Signature jku is not an allowed TrueLayer address.' };
    if (!header.kid) return { ok: false, reason: 'Tl-Signature has no kid.' };

    const named = new Set(
      (header.tl_headers ?? '')
        .split(',')
        .map((n) => n.trim().toLowerCase())
        .filter(Boolean),
    );
    const unsigned = options.mustSign?.find((name) => !named.has(name.toLowerCase()));
    if (unsigned) return { ok: false, reason: `Tl-Signature does not cover ${unsigned}.` };

    const signed: [string, string][] = [];
    for (const name of (header.tl_headers ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)) {
      const value = headerOf(input.headers, name);
      if (value === undefined) return { ok: false, reason: `Signed header ${name} is missing.` };
      signed.push([name, value]);
    }

    let key: KeyObject | undefined;
    try {
      key = (await keysOf(header.jku, false)).get(header.kid);
      if (!key) key = (await keysOf(header.jku, true)).get(header.kid);
    } catch (error) {
      return { ok: false, reason: (error as Error).message, retry: true };
    }
    if (!key) return { ok: false, reason: "Tl-Signature kid is not in TrueLayer's JWKS." };

    const signature = Buffer.from(signatureB64, 'base64url');
    // truelayer-signing accepts the path with or without a trailing slash.
    const paths = [
      input.path,
      input.path.endsWith('/') ? input.path.slice(0, -1) : `${input.path}/`,
    ];
    for (const path of paths) {
      const payload = tlSigningPayload(input.method, path, signed, input.body);
      const signingInput = Buffer.from(`${headerB64}.${b64url(payload)}`);
      try {
        if (verifySignature('sha512', signingInput, { key, dsaEncoding: 'ieee-p1363' }, signature))
          return { ok: true };
      } catch {
        return { ok: false, reason: 'Tl-Signature could not be read.' };
      }
    }
    return { ok: false, reason: 'Tl-Signature does not match.' };
  };
}
