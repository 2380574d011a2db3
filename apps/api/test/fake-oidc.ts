import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { inject } from 'vitest';

/**
 * The provider's two RS256 key pairs (its own and a foreign one), made once per test run by the
 * api project's global setup (test/setup/database-template.ts): generating them costs ~0.3 s of
 * CPU, which every test file paid. Made here when the run has none.
 */
async function keyPairs() {
  const made = inject('fakeOidcKeys');
  if (!made) return [await generateKeyPair('RS256'), await generateKeyPair('RS256')] as const;
  const pair = async ({ privateJwk, publicJwk }: { privateJwk: JWK; publicJwk: JWK }) => ({
    privateKey: await importJWK(privateJwk, 'RS256'),
    publicKey: await importJWK(publicJwk, 'RS256'),
  });
  return [await pair(made.own), await pair(made.foreign)] as const;
}

/** Two fresh key pairs as JWKs, for the global setup to hand to every test file. */
export async function makeFakeOidcKeys() {
  const one = async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    return { privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
  };
  return { own: await one(), foreign: await one() };
}

/**
 * An external OpenID provider as the API sees it: discovery and JWKS over real HTTP, and access
 * tokens signed with its key (RS256 JWTs, as Keycloak, Entra ID or Auth0 issue them).
 */
export async function startFakeOidcProvider() {
  const [{ privateKey, publicKey }, other] = await keyPairs();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const server: Server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/.well-known/openid-configuration') {
      response.end(
        JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` }),
      );
    } else if (request.url === '/jwks') {
      response.end(JSON.stringify({ keys: [jwk] }));
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const audience = 'ledgerline-api';

  return {
    issuer,
    audience,
    /** A token as the provider would issue it; override any claim to break it on purpose. */
    async token(
      /**
       * `email_verified` is true unless given, as Keycloak, Entra ID (with its e-mail claims) and
       * Auth0 say of an address they checked; null leaves the claim out.
       */
      claims: {
        sub: string;
        email?: string;
        name?: string;
        given_name?: string;
        family_name?: string;
        email_verified?: boolean | string | null;
      },
      options: {
        issuer?: string;
        audience?: string;
        expiresIn?: string | number;
        foreignKey?: boolean;
      } = {},
    ) {
      const verified = claims.email_verified === undefined ? true : claims.email_verified;
      return new SignJWT({
        email: claims.email,
        name: claims.name,
        given_name: claims.given_name,
        family_name: claims.family_name,
        ...(verified === null || claims.email === undefined ? {} : { email_verified: verified }),
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setSubject(claims.sub)
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? audience)
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '5m')
        .sign(options.foreignKey ? other.privateKey : privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeOidcProvider = Awaited<ReturnType<typeof startFakeOidcProvider>>;
