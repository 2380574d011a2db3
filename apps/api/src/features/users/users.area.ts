import { area, type AppContext, type Area } from '../../platform/area.js';
import { createInvitationProofs } from '../auth/index.js';
import { createUsersRepository } from './users.repository.js';
import { usersRoutes } from './users.routes.js';
import { usersAdminRoutes } from './users-admin.routes.js';
import { createUsersAdminService } from './users-admin.service.js';
import { createInvitations, type InvitationLinks } from './users-invitations.js';
import { createUsersService } from './users.service.js';

/** Users: the signed-in user's own record, the tenant's users and their invitations. */
export function usersArea(
  ctx: AppContext,
  needs: {
    /** The embedded identity provider's set-password link, when it is the one in use. */
    invitationLink?: InvitationLinks['link'];
  },
): Area {
  const { config, database, jobs, mailer, sessions } = ctx;
  const repository = createUsersRepository();
  const users = createUsersAdminService({ repository, database });
  const invitationProofs = createInvitationProofs({ database, publicUrl: config.publicUrl });
  const invitations = createInvitations({
    jobs,
    users,
    mailer,
    // With an external provider the link carries the single-use proof the invited user's first
    // sign-in must bring; the embedded one mails its set-password link.
    links: { link: (input) => (needs.invitationLink ?? invitationProofs.link)(input) },
    publicUrl: config.publicUrl,
    log: ctx.log,
  });
  return area({}, async (app) => {
    app.addHook('onReady', () => invitations.register());
    await app.register(usersRoutes, { users: createUsersService({ repository }) });
    await app.register(usersAdminRoutes, { users, invitations, sessions });
  });
}
