import type { FastifyBaseLogger } from 'fastify';
import type { Jobs } from '../../platform/jobs.js';
import { escapeHtml, type Mailer } from '../../platform/mail.js';
import type { UsersAdminService } from './users-admin.service.js';

export interface InvitationData {
  tenantId: string;
  userId: string;
  redirectUri: string | null;
}

/**
 * How a new user gets in: the embedded provider makes a set-password link; with an external one
 * the link carries the single-use proof of the invitation (features/auth/invitation-proof.ts).
 */
export interface InvitationLinks {
  link(input: {
    tenantId: string;
    userId: string;
    email: string;
    name: string;
    redirectUri: string;
  }): Promise<string>;
}

export const invitationJob = 'user.invite';

/**
 * Invitations are mail, so they leave after the user's row committed, as a durable job with
 * retries (style.md §7).
 */
export function createInvitations(deps: {
  jobs: Jobs;
  mailer: Mailer;
  users: UsersAdminService;
  links: InvitationLinks;
  publicUrl: string;
  log: FastifyBaseLogger;
}) {
  async function deliver(data: InvitationData) {
    const user = await deps.users.forInvitation(data.tenantId, data.userId);
    if (!user) return; // deleted before the mail went out
    const redirectUri = data.redirectUri ?? `${deps.publicUrl}/`;
    const link = await deps.links.link({
      tenantId: data.tenantId,
      userId: data.userId,
      email: user.emailAddress,
      name: user.displayName,
      redirectUri,
    });
    const greeting = `Hello ${user.displayName},`;
    const body = 'You have been invited to Ledgerline, the back office for your company’s payment collection.';
    await deps.mailer.send({
      to: user.emailAddress,
      subject: 'Your invitation to Ledgerline',
      text: `${greeting}\n\n${body}\n\nOpen this link to set your password and sign in:\n${link}\n\nThe link works once and expires in 72 hours.\n`,
      html:
        `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>` +
        `<p><a href="${escapeHtml(link)}">Set your password and sign in</a></p>` +
        '<p>The link works once and expires in 72 hours.</p>',
    });
    deps.log.info({ tenantId: data.tenantId, userId: data.userId }, 'invitation sent');
  }

  return {
    register: () => deps.jobs.work<InvitationData>(invitationJob, deliver),
    send: (data: InvitationData) => deps.jobs.send(invitationJob, data),
  };
}
export type Invitations = ReturnType<typeof createInvitations>;
