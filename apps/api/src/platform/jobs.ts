import PgBoss from 'pg-boss';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Database } from '../db/client.js';

export type JobHandler<T> = (data: T) => Promise<void>;

export interface Jobs {
  /** Enqueues after the caller's transaction committed (style.md §7); duplicates by key are dropped. */
  send<T extends object>(name: string, data: T, options?: { singletonKey?: string }): Promise<void>;
  work<T extends object>(name: string, handler: JobHandler<T>): Promise<void>;
  /** Runs `name` on a cron schedule (UTC), once per tick across every API process. */
  schedule(name: string, cron: string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Durable background work on the same database (design §1): pg-boss, through a small adapter so
 * it runs on PGlite as on PostgreSQL. Jobs survive a restart and any API process may run them.
 */
export function createJobs(database: Database, log: Logger): Jobs {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => database.raw.query(text, values) },
    schema: 'pgboss',
    // PGlite is one connection: poll gently; PostgreSQL deployments are fine with the same.
    monitorStateIntervalSeconds: 60,
  });
  boss.on('error', (error) => log.error({ err: error }, 'background jobs error'));
  const queues = new Set<string>();
  let started = false;

  async function ensureQueue(name: string) {
    if (queues.has(name)) return;
    await boss.createQueue(name, { name, retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60 });
    queues.add(name);
  }

  return {
    async start() {
      await boss.start();
      started = true;
    },
    async send(name, data, options = {}) {
      if (!started) throw new Error('Jobs are not started.');
      await ensureQueue(name);
      await boss.send(name, data, { singletonKey: options.singletonKey });
    },
    async work(name, handler) {
      await ensureQueue(name);
      await boss.work<object>(name, { pollingIntervalSeconds: 1, batchSize: 1 }, async (jobs) => {
        for (const job of jobs) {
          log.info({ job: name, id: job.id }, 'job started');
          await handler(job.data as never);
          log.info({ job: name, id: job.id }, 'job done');
        }
      });
    },
    async schedule(name, cron) {
      await ensureQueue(name);
      await boss.schedule(name, cron, {}, { tz: 'UTC' });
    },
    async stop() {
      if (started) await boss.stop({ graceful: true, timeout: 10_000 });
      started = false;
    },
  };
}
