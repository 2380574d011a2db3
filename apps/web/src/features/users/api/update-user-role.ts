import type { Role } from '@ledgerline/contract';
import { tenantClient } from '@/lib/http';

/** spec 1 §7 PUT users/{id}/role?role=: the user's role in the tenant. */
export function updateUserRole(id: string, role: Role): Promise<unknown> {
  return tenantClient.put(`/users/${id}/role`, undefined, { query: { role } });
}
