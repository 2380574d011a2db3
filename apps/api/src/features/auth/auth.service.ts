import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { normalizeEmail } from '../../platform/crypto.js';
import { ForbiddenError, UnauthorizedError } from '../../platform/errors.js';
import type { SessionStore } from '../../platform/sessions.js';
import { provesInvitation } from './invitation-proof.js';
import type { TokenVerifier, VerifiedToken } from './token-verifier.js';
import { inTenant } from '../../platform/scope.js';

export interface SignedInUser {
  tenantId: string;
  userId: string;
  displayName: string;
}

export const emailNotVerifiedMessage =
  'Your identity provider has not verified your e-mail address. Verify it there, then sign in again.';
export const invitationNeededMessage =
  'Open the invitation link from your e-mail to sign in to Ledgerline for the first time.';
export const invitationExpiredMessage =
  'Your invitation has expired or was already used. Ask an administrator of your company to invite you again.';
const noAccessMessage =
  'Your account has no access to Ledgerline. Ask an administrator of your company for an invitation.';

/**
 * spec 1 §3 User (me) forename and surname: the provider's given_name and family_name, refreshed
 * at each sign-in that carries them; a claim left out keeps what is stored (docs/decisions/124-spec-1-row-by-row-logo-rules-user-update-body-to.md).
 */
function namesFrom(token: VerifiedToken): { forename?: string; surname?: string } {
  return {
    ...(token.givenName ? { forename: token.givenName.slice(0, 100) } : {}),
    ...(token.familyName ? { surname: token.familyName.slice(0, 100) } : {}),
  };
}

/**
 * Maps a verified access token to a Ledgerline user: by the provider's subject once bound, else
 * at the first sign-in by an address the provider verified. A user invited while
 * an external provider signs users in carries the hash of the invitation's single-use token and
 * binds only when the sign-in brings that token (the proof cookie the invitation link left); users
 * an operator made (the first administrator) and those the embedded provider signs in (its link set
 * their password) bind by the verified address.
 */
export function createAuthService(deps: {
  database: Database;
  verifyToken: TokenVerifier;
  sessions: SessionStore;
}) {
  const { db } = deps.database;
  const columns = {
    tenantId: users.tenantId,
    userId: users.id,
    displayName: users.displayName,
    disabledAt: users.disabledAt,
  };

  /** The user a first sign-in binds, or why none is. */
  async function bindByEmail(
    token: VerifiedToken,
    invitationToken: string | null,
  ): Promise<{ user: SignedInUser & { disabledAt: Date | null }; usedInvitation: boolean } | null> {
    if (!token.email) return null;
    // Checked before the address is looked up, so an unverified token learns nothing of it.
    if (!token.emailVerified) throw new ForbiddenError(emailNotVerifiedMessage);
    const [pending] = await db
      .select({
        ...columns,
        invitationTokenHash: users.invitationTokenHash,
        invitationExpiresAt: users.invitationExpiresAt,
      })
      .from(users)
      .where(and(eq(users.emailNormalized, normalizeEmail(token.email)), isNull(users.idpSubject)));
    if (!pending) return null;
    const invited = pending.invitationTokenHash !== null;
    if (invited && !provesInvitation(invitationToken, pending)) {
      throw new ForbiddenError(
        invitationToken ? invitationExpiredMessage : invitationNeededMessage,
      );
    }
    // Still unbound (two first sign-ins at once bind one), and the proof is used up.
    const bound = await db
      .update(users)
      .set({
        idpIssuer: token.issuer,
        idpSubject: token.subject,
        invitationTokenHash: null,
        invitationExpiresAt: null,
      })
      .where(and(inTenant(users, pending), eq(users.id, pending.userId), isNull(users.idpSubject)))
      .returning({ id: users.id });
    if (bound.length === 0) return null;
    return { user: pending, usedInvitation: invited };
  }

  async function findUser(token: VerifiedToken, invitationToken: string | null) {
    const [user] = await db
      .select(columns)
      .from(users)
      .where(and(eq(users.idpIssuer, token.issuer), eq(users.idpSubject, token.subject)));
    const found = user
      ? { user, usedInvitation: false }
      : await bindByEmail(token, invitationToken);
    if (!found || found.user.disabledAt) throw new ForbiddenError(noAccessMessage);
    return found;
  }

  return {
    /** Signature, issuer, audience and expiry; anything else is 401 before any account is named. */
    async verify(accessToken: string): Promise<VerifiedToken> {
      try {
        return await deps.verifyToken(accessToken);
      } catch {
        throw new UnauthorizedError('Authentication not correct.');
      }
    },

    /** `invitationToken`: the proof an invitation link left in the browser, if any. */
    async signIn(
      token: VerifiedToken,
      client: { ip: string; userAgent?: string },
      invitationToken: string | null = null,
    ) {
      const { user, usedInvitation } = await findUser(token, invitationToken);
      const session = await deps.sessions.create({
        tenantId: user.tenantId,
        userId: user.userId,
        ...client,
      });
      await db
        .update(users)
        .set({ lastSignInAt: new Date(), ...namesFrom(token) })
        .where(and(inTenant(users, user), eq(users.id, user.userId)));
      return { user, session, usedInvitation };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
