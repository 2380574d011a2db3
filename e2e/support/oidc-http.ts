import { createHash, randomBytes } from 'node:crypto';

// Signs in to a running Ledgerline over plain HTTP, as the site does in a browser: the embedded
// provider's authorization code flow with PKCE, then POST /api/v0/login. For journeys that check
// the server (restarts, data) rather than the screens.

interface SignInConfig {
  issuer: string;
  clientId: string;
  scope: string;
  resource: string | null;
  redirectPath: string;
}

/** Just enough of a browser's cookie store for oidc-provider's path-scoped cookies. */
class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const split = pair.indexOf('=');
      const name = pair.slice(0, split).trim();
      const value = pair.slice(split + 1).trim();
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', ...rest] = attribute.trim().split('=');
        const attributeValue = rest.join('=');
        if (key.toLowerCase() === 'path') path = attributeValue;
        if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now()) expired = true;
        if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
      }
      const id = `${name};${path}`;
      if (expired) this.cookies.delete(id);
      else this.cookies.set(id, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.replace(/\/?$/, '/')))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    return [...this.cookies.values()].find((c) => c.name === name)?.value;
  }
}

async function browse(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header(url);
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.store(response);
  return response;
}

function next(response: Response, base: string): URL {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, base);
}

export interface HttpSession {
  /** A call to the API with the session cookie, the XSRF header and an optional JSON body. */
  fetch(path: string, init?: { method?: string; json?: unknown; headers?: Record<string, string> }): Promise<Response>;
}

export async function signInOverHttp(baseUrl: string, email: string, password: string): Promise<HttpSession> {
  const config = (await (await fetch(`${baseUrl}/api/v0/info/sign-in`)).json()) as SignInConfig;
  const verifier = randomBytes(64).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(8).toString('hex');
  const redirectUri = `${baseUrl}${config.redirectPath}`;
  const authorize = new URL(`${config.issuer}/auth`);
  const params: Record<string, string> = {
    client_id: config.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: config.scope,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  if (config.resource) params.resource = config.resource;
  for (const [key, value] of Object.entries(params)) authorize.searchParams.set(key, value);

  const jar = new CookieJar();
  const loginPage = next(await browse(jar, authorize), baseUrl);
  await browse(jar, loginPage);
  let response = await browse(jar, loginPage, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  let callback = next(response, baseUrl);
  for (let hop = 0; callback.pathname.startsWith('/idp') && hop < 10; hop++) {
    response = await browse(jar, callback);
    callback = next(response, baseUrl);
  }
  if (callback.searchParams.get('state') !== state) throw new Error('State not matched');
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`sign-in did not return a code: ${callback.toString()}`);

  const token = await fetch(`${config.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id: config.clientId,
    }),
  });
  const { access_token: accessToken } = (await token.json()) as { access_token: string };

  const api = new CookieJar();
  const login = await browse(api, new URL('/api/v0/login', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessToken }),
  });
  if (login.status !== 204) throw new Error(`login failed: ${login.status} ${await login.text()}`);

  return {
    fetch(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const xsrf = api.get('XSRF-TOKEN');
      if (xsrf) headers['x-xsrf-token'] = xsrf;
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      return browse(api, new URL(path, baseUrl), {
        method: init.method ?? 'GET',
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
    },
  };
}
