import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { normalizeEmail } from '../../platform/crypto.js';
import { ForbiddenError, UnauthorizedError } from '../../platform/errors.js';
import type { SessionStore } from '../../platform/sessions.js';
import type { TokenVerifier, VerifiedToken } from './token-verifier.js';

export interface SignedInUser {
  tenantId: string;
  userId: string;
  displayName: string;
}

/**
 * Maps a verified access token to a Ledgerline user: by the provider's subject once bound, else
 * by e-mail at first sign-in (an invited user signing in through an external provider).
 */
export function createAuthService(deps: {
  database: Database;
  verifyToken: TokenVerifier;
  sessions: SessionStore;
}) {
  const { db } = deps.database;

  async function findUser(
    issuer: string,
    subject: string,
    email: string | null,
  ): Promise<SignedInUser> {
    const columns = {
      tenantId: users.tenantId,
      userId: users.id,
      displayName: users.displayName,
      disabledAt: users.disabledAt,
    };
    let [user] = await db
      .select(columns)
      .from(users)
      .where(and(eq(users.idpIssuer, issuer), eq(users.idpSubject, subject)));
    if (!user && email) {
      [user] = await db
        .select(columns)
        .from(users)
        .where(and(eq(users.emailNormalized, normalizeEmail(email)), isNull(users.idpSubject)));
      if (user) {
        await db
          .update(users)
          .set({ idpIssuer: issuer, idpSubject: subject })
          .where(and(eq(users.tenantId, user.tenantId), eq(users.id, user.userId)));
      }
    }
    if (!user || user.disabledAt) {
      throw new ForbiddenError(
        'Your account has no access to Ledgerline. Ask an administrator of your company for an invitation.',
      );
    }
    return user;
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

    async signIn(token: VerifiedToken, client: { ip: string; userAgent?: string }) {
      const user = await findUser(token.issuer, token.subject, token.email);
      const session = await deps.sessions.create({
        tenantId: user.tenantId,
        userId: user.userId,
        ...client,
      });
      await db
        .update(users)
        .set({ lastSignInAt: new Date() })
        .where(and(eq(users.tenantId, user.tenantId), eq(users.id, user.userId)));
      return { user, session };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
