import { publicClient } from '@/lib/http';

/** spec 1 §7 GET /logout: ends the server session. Public: it must work after expiry too. */
export function getLogout(): Promise<void> {
  return publicClient.get<void>('/logout');
}
