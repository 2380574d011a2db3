import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { sha256 } from '../../platform/crypto.js';
import { sessionCookieAttributes } from '../../platform/auth.js';
import { inTenant } from '../../platform/scope.js';

/** How long an invitation link works, as the embedded provider's set-password link. */
export const invitationProofTtlHours = 72;

export const invitationAcceptPath = '/api/v0/invitations/accept';

/** Only POST /login reads the proof, so only it is sent the cookie. */
const proofCookiePath = '/api/v0/login';

export function invitationCookieName(secure: boolean): string {
  // __Secure- rather than __Host-: the cookie keeps to the login path.
  return secure ? '__Secure-ledgerline_invitation' : 'ledgerline_invitation';
}

export function invitationCookieAttributes(secure: boolean, framed: boolean) {
  return { ...sessionCookieAttributes(secure, framed), path: proofCookiePath, httpOnly: true };
}

/**
 * With an external identity provider an invitation is a link to Ledgerline carrying a single-use
 * token (docs/decisions/106-invited-users-bind-through-their-invitation.md "Invited users bind through their invitation"). Only
 * its sha-256 is stored on the user; a new invitation of the user replaces it, the first sign-in
 * that brings it uses it up.
 */
export function createInvitationProofs(deps: { database: Database; publicUrl: string }) {
  return {
    async link(input: { tenantId: string; userId: string }): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await deps.database.db
        .update(users)
        .set({
          invitationTokenHash: sha256(token),
          invitationExpiresAt: new Date(Date.now() + invitationProofTtlHours * 3_600_000),
        })
        .where(and(inTenant(users, input), eq(users.id, input.userId), isNull(users.idpSubject)));
      const url = new URL(invitationAcceptPath, deps.publicUrl);
      url.searchParams.set('token', token);
      return url.href;
    },
  };
}
export type InvitationProofs = ReturnType<typeof createInvitationProofs>;

/** Whether a token presented is the one whose hash is stored, still within its time. */
export function provesInvitation(
  presented: string | null,
  stored: { invitationTokenHash: string | null; invitationExpiresAt: Date | null },
): boolean {
  if (!presented || !stored.invitationTokenHash || !stored.invitationExpiresAt) return false;
  if (stored.invitationExpiresAt.getTime() <= Date.now()) return false;
  return timingSafeEqual(Buffer.from(sha256(presented)), Buffer.from(stored.invitationTokenHash));
}
