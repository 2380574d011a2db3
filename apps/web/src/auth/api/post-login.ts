import { publicClient } from '@/lib/http';

/** spec 1 §7 POST /login: the server starts its session (HttpOnly cookie) and sets XSRF-TOKEN. */
export function postLogin(accessToken: string): Promise<void> {
  return publicClient.post<void>('/login', { accessToken });
}
