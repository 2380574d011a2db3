import { publicClient, readCookie, xsrfCookieName, xsrfHeaderName } from '@/lib/http';

/**
 * spec 1 §7 GET /logout: ends the server session. Public: it must work after expiry too. The
 * server wants the XSRF header on it although it is a GET, so no other site can sign a user out.
 */
export function getLogout(): Promise<void> {
  const xsrf = readCookie(xsrfCookieName);
  return publicClient.get<void>('/logout', xsrf ? { headers: { [xsrfHeaderName]: xsrf } } : {});
}
