import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * An external OpenID provider as the API sees it: discovery and JWKS over real HTTP, and access
 * tokens signed with its key (RS256 JWTs, as Keycloak, Entra ID or Auth0 issue them).
 */
export async function startFakeOidcProvider() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const other = await generateKeyPair('RS256');
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
      claims: { sub: string; email?: string; name?: string },
      options: {
        issuer?: string;
        audience?: string;
        expiresIn?: string | number;
        foreignKey?: boolean;
      } = {},
    ) {
      return new SignJWT({ email: claims.email, name: claims.name })
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
