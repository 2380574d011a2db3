import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import type { CustomHostIdRepository } from './custom-host-id.repository.js';
import { parseTemplate, type Template } from './custom-host-id.template.js';
import type { DatasetScope } from '../../platform/scope.js';

export const rebuildJob = 'transactions.custom-host-id.rebuild';
export type RebuildJobData = DatasetScope;

export interface CustomHostIdRebuildOptions {
  database: Database;
  jobs: Jobs;
  repository: CustomHostIdRepository;
  log: Logger;
  /** Transactions per batch: each batch is one short transaction (docs/decisions/027-custom-host-id.md). */
  batchSize?: number;
}

/**
 * spec 3 custom host id rebuild as a durable job: QueuedForRebuild → Rebuilding → Completed.
 * Every transaction of the company gets the value its setting computes, in batches by id, each in
 * its own transaction, so a million rows neither hold one giant transaction nor block the other
 * calls of a PGlite process for long. A save of the setting during the rebuild starts it over with
 * the new value. A failure is logged and leaves the rebuild in None, so it can be asked for again.
 * Running twice is harmless (the same value is computed and unchanged rows are not written), so
 * the job carries no singleton key: a key could drop a new request while the last job is finishing.
 */
export function createCustomHostIdRebuild(options: CustomHostIdRebuildOptions) {
  const { database, jobs, repository, log } = options;
  const batchSize = options.batchSize ?? 5000;

  async function settingOf(scope: DatasetScope) {
    const saved = await database.withTenant(scope.tenantId, (tx) => repository.find(tx, scope));
    if (!saved) return null;
    const parsed = parseTemplate(saved.parseValue);
    if (!parsed.ok) throw new Error(`The saved parse value does not parse: ${parsed.message}`);
    return {
      template: parsed.template as Template,
      trimWhiteSpace: saved.trimWhiteSpace,
      /** What the rows are computed from: a save that changes it restarts the walk. */
      version: `${saved.trimWhiteSpace}:${saved.parseValue}`,
    };
  }

  async function rebuild(scope: DatasetScope) {
    const { tenantId } = scope;
    const started = await database.withTenant(tenantId, (tx) =>
      repository.transition(tx, scope, ['QueuedForRebuild', 'Rebuilding'], 'Rebuilding'),
    );
    if (!started) return; // done already by a duplicate job, or the company is gone
    try {
      let setting = await settingOf(scope);
      let after: string | null = null;
      let changed = 0;
      while (setting) {
        const batch = await database.withTenant(tenantId, (tx) =>
          repository.rebuildBatch(tx, scope, setting!, after, batchSize),
        );
        changed += batch.changed;
        const current = await settingOf(scope);
        if (current?.version !== setting.version) {
          log.info(
            { tenantId, datasetId: scope.datasetId },
            'custom host id setting changed: rebuild starts over',
          );
          setting = current;
          after = null;
        } else if (batch.last === null) {
          break;
        } else {
          after = batch.last;
        }
      }
      await database.withTenant(tenantId, (tx) =>
        repository.transition(tx, scope, ['Rebuilding'], 'Completed'),
      );
      log.info({ tenantId, datasetId: scope.datasetId, changed }, 'custom host ids rebuilt');
    } catch (error) {
      log.error(
        { err: error, tenantId, datasetId: scope.datasetId },
        'custom host id rebuild failed',
      );
      await database
        .withTenant(tenantId, (tx) =>
          repository.transition(tx, scope, ['QueuedForRebuild', 'Rebuilding'], 'None'),
        )
        .catch((reset: unknown) =>
          log.error({ err: reset, tenantId }, 'could not reset the rebuild state'),
        );
    }
  }

  return {
    rebuild,
    register: () => jobs.work<RebuildJobData>(rebuildJob, rebuild),
    /**
     * Sends the job once the request committed; if it cannot be sent the company leaves
     * QueuedForRebuild (the button would stay busy with nothing to run it) and the error goes on.
     */
    async send(scope: DatasetScope) {
      try {
        await jobs.send(rebuildJob, scope);
      } catch (error) {
        await database.withTenant(scope.tenantId, (tx) =>
          repository.transition(tx, scope, ['QueuedForRebuild'], 'None'),
        );
        throw error;
      }
    },
    /** A process that stopped between a commit and its enqueue leaves a rebuild queued: resume it. */
    async resume() {
      for (const scope of await repository.queued(database.db)) {
        await jobs.send(rebuildJob, scope);
      }
    },
  };
}
export type CustomHostIdRebuild = ReturnType<typeof createCustomHostIdRebuild>;
