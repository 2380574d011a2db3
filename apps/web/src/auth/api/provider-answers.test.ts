import { messages } from '@ledgerline/contract';
import { describe, expect, it, vi } from 'vitest';
import { exchangeCode, SignInError } from './exchange-code';
import { getOidcDiscovery } from './get-oidc-discovery';

// The identity provider's answers are checked by hand, not with zod (docs/decisions/085-first-load-under-170-kb.md "First
// load under 170 KB"): the same answers are taken and refused as the zod schemas did.
const exchange = {
  tokenEndpoint: 'http://idp.test/token',
  clientId: 'web',
  code: 'c',
  codeVerifier: 'v',
  redirectUri: 'http://site.test/signin-callback',
  resource: null,
};

function answer(body: unknown, status = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(body, { status })),
  );
}

describe('token answers', () => {
  it('takes an access token with a lifetime in seconds, as a number or numeric text', async () => {
    answer({ access_token: 'at', expires_in: 300, id_token: 'idt', token_type: 'Bearer' });
    await expect(exchangeCode(exchange)).resolves.toEqual({
      access_token: 'at',
      expires_in: 300,
      id_token: 'idt',
    });
    answer({ access_token: 'at', expires_in: '3600' });
    await expect(exchangeCode(exchange)).resolves.toEqual({ access_token: 'at', expires_in: 3600 });
  });

  it.each([
    [{ expires_in: 300 }],
    [{ access_token: '', expires_in: 300 }],
    [{ access_token: 'at' }],
    [{ access_token: 'at', expires_in: 0 }],
    [{ access_token: 'at', expires_in: 'soon' }],
    [{ access_token: 'at', expires_in: 300, id_token: 7 }],
    ['at'],
    [null],
  ])('refuses %j', async (body) => {
    answer(body);
    const error = await exchangeCode(exchange).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInError);
    expect(error).toMatchObject({
      message: messages.authenticationNotCorrect,
      detail: 'No access token was returned.',
    });
  });

  it("keeps the provider's explanation of a refusal, or its error code", async () => {
    answer({ error: 'invalid_grant', error_description: 'grant request is invalid' }, 400);
    await expect(exchangeCode(exchange)).rejects.toMatchObject({
      detail: 'grant request is invalid',
    });
    answer({ error: 'invalid_grant' }, 400);
    await expect(exchangeCode(exchange)).rejects.toMatchObject({ detail: 'invalid_grant' });
    answer({ message: 'no' }, 500);
    await expect(exchangeCode(exchange)).rejects.toMatchObject({ detail: null });
  });
});

describe('discovery documents', () => {
  it('takes the endpoints the site uses', async () => {
    answer({ authorization_endpoint: 'a', token_endpoint: 't', issuer: 'i' });
    await expect(getOidcDiscovery('http://idp.test/')).resolves.toEqual({
      authorization_endpoint: 'a',
      token_endpoint: 't',
    });
    answer({ authorization_endpoint: 'a', token_endpoint: 't', end_session_endpoint: 'e' });
    await expect(getOidcDiscovery('http://idp.test')).resolves.toMatchObject({
      end_session_endpoint: 'e',
    });
  });

  it('refuses a document without them', async () => {
    answer({ authorization_endpoint: 'a' });
    await expect(getOidcDiscovery('http://idp.test')).rejects.toThrow(
      "The identity provider's configuration could not be read",
    );
  });
});
