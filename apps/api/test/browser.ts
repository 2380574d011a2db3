/**
 * A browser as far as the sign-in pages need one, for tests that drive them over a real port
 * (the same as src/idp/identity-provider.test.ts keeps for itself).
 */

/** A browser's cookie store, enough for oidc-provider's path-scoped cookies. */
export class CookieJar {
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
        if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now())
          expired = true;
        if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
      }
      const id = `${name};${path}`;
      if (expired) this.cookies.delete(id);
      else this.cookies.set(id, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter(
        (c) => url.pathname === c.path || url.pathname.startsWith(c.path.replace(/\/?$/, '/')),
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  names(): string[] {
    return [...this.cookies.values()].map((c) => c.name);
  }
}

export async function browse(
  jar: CookieJar,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const target = new URL(url);
  const headers = new Headers(init.headers);
  const cookie = jar.header(target);
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(target, { ...init, headers, redirect: 'manual' });
  jar.store(response);
  return response;
}

export function postForm(
  jar: CookieJar,
  url: string | URL,
  fields: Record<string, string>,
): Promise<Response> {
  return browse(jar, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}
