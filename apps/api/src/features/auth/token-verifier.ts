import {
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
} from 'jose';

export interface VerifiedToken {
  issuer: string;
  subject: string;
  email: string | null;
  /** The provider checked the address (`email_verified` is the boolean true, nothing else). */
  emailVerified: boolean;
  name: string | null;
  /** OpenID Connect standard claims given_name and family_name, when the provider sends them. */
  givenName: string | null;
  familyName: string | null;
}

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** The embedded provider hands over its keys directly; an external one is asked over HTTP. */
  localJwks?: () => Promise<JSONWebKeySet>;
}

type KeySet = ReturnType<typeof createLocalJWKSet> | ReturnType<typeof createRemoteJWKSet>;

/** Verifies an access token against the issuer's JWKS: signature, issuer, audience, expiry. */
export function createTokenVerifier(options: TokenVerifierOptions) {
  let keySet: { value: KeySet; loadedAt: number } | null = null;

  async function keys(): Promise<KeySet> {
    if (options.localJwks) {
      // Re-read at most once a minute so rotated keys are picked up.
      if (!keySet || Date.now() - keySet.loadedAt > 60_000) {
        keySet = { value: createLocalJWKSet(await options.localJwks()), loadedAt: Date.now() };
      }
      return keySet.value;
    }
    if (!keySet) {
      const response = await fetch(
        `${options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
      );
      if (!response.ok) throw new Error(`OIDC discovery failed with ${response.status}`);
      const discovery = (await response.json()) as { jwks_uri: string };
      keySet = { value: createRemoteJWKSet(new URL(discovery.jwks_uri)), loadedAt: Date.now() };
    }
    return keySet.value;
  }

  return async function verify(token: string): Promise<VerifiedToken> {
    const { payload } = await jwtVerify(token, await keys(), {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
      clockTolerance: 30,
    });
    if (!payload.sub) throw new Error('token has no subject');
    return {
      issuer: payload.iss!,
      subject: payload.sub,
      email: claim(payload, 'email'),
      emailVerified: payload.email_verified === true,
      name: claim(payload, 'name'),
      givenName: claim(payload, 'given_name'),
      familyName: claim(payload, 'family_name'),
    };
  };
}

function claim(payload: JWTPayload, name: string): string | null {
  const value = payload[name];
  const text = typeof value === 'string' ? value.trim() : '';
  return text.length > 0 ? text : null;
}

export type TokenVerifier = ReturnType<typeof createTokenVerifier>;
