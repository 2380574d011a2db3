import { area, type AppContext, type Area } from '../../platform/area.js';
import { issueStatementLink } from '../statements/index.js';
import { remindersRoutes } from './reminders.routes.js';
import { createReminders } from './reminders.service.js';

/**
 * Reminders: the reminder runs and their mail outbox; each mail carries a new statement link of
 * its account (the statements area), issued in the run's transaction.
 */
export function remindersArea(ctx: AppContext): Area {
  const reminders = createReminders({
    database: ctx.database,
    jobs: ctx.jobs,
    mailer: ctx.mailer,
    statementLink: (tx, scope, accountId) =>
      issueStatementLink(
        tx,
        { tenantId: scope.tenantId, datasetId: String(scope.datasetId) },
        accountId,
        ctx.config.publicUrl,
      ),
    log: ctx.log,
  });
  return area({}, async (app) => {
    app.addHook('onReady', () => reminders.register());
    await app.register(remindersRoutes, { reminders });
  });
}
