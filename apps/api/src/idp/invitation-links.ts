import type { Config } from '../config.js';
import type { AccountService } from './accounts.js';
import { setPasswordPath } from './login-pages.js';
import { safeRedirect } from './site-origins.js';

/** How long an invitation's set-password link works (docs/decisions/106-invited-users-bind-through-their-invitation.md: invitations). */
export const invitationLinkTtlHours = 72;

export interface InvitationLinkInput {
  email: string;
  name: string;
  /** Where the user lands once the password is set; only the site's origins are honoured. */
  redirectUri: string;
}

/**
 * The link an invitation e-mail carries: makes the provider account when it is new and a
 * single-use set-password link for it. An account that already has a password gets one too (a
 * re-invited user may have forgotten it); only the mailbox's owner can use it, and using it ends
 * the account's other sessions.
 */
export async function createInvitationLink(
  accounts: AccountService,
  config: Config,
  input: InvitationLinkInput,
): Promise<string> {
  const redirect = safeRedirect(input.redirectUri, config);
  const account = await findOrCreateAccount(accounts, input);
  const token = await accounts.createSetPasswordToken(account.id, invitationLinkTtlHours);
  const url = new URL(setPasswordPath, config.publicUrl);
  url.searchParams.set('token', token);
  url.searchParams.set('redirect', redirect);
  return url.href;
}

async function findOrCreateAccount(accounts: AccountService, input: InvitationLinkInput) {
  const existing = await accounts.findByEmail(input.email);
  if (existing) return existing;
  try {
    return await accounts.createAccount({ email: input.email, name: input.name });
  } catch (error) {
    // Two invitations of one address at once: the other one made the account.
    const raced = await accounts.findByEmail(input.email);
    if (raced) return raced;
    throw error;
  }
}
