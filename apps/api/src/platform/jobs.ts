import PgBoss from 'pg-boss';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Database } from '../db/client.js';

export type JobHandler<T> = (data: T) => Promise<void>;

export interface Jobs {
  /** Enqueues after the caller's transaction committed (style.md §7); duplicates by key are dropped. */
  send<T extends object>(
    name: string,
    data: T,
    options?: { singletonKey?: string; startAfterSeconds?: number },
  ): Promise<void>;
  /**
   * A queue that holds at most one waiting and one running job across every process (pg-boss's
   * 'stately' policy): further sends while one waits are dropped. Call before send and work.
   */
  nudgeQueue(name: string): void;
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
  /**
   * Set once pg-boss has stopped. A worker's fetch that was under way when it stopped can still
   * finish and try to record its job's failure after the database is closed, from a pg-boss path
   * that nobody awaits; any answer (an error, or rows of the wrong shape) would then surface as an
   * unhandled rejection. Such a late statement is never answered instead: the job stays active and
   * is retried when it expires, and the stopped worker waits on nothing that anyone holds.
   */
  let stopped = false;
  const boss = new PgBoss({
    db: {
      executeSql: async (text: string, values: unknown[]) => {
        if (stopped) {
          log.warn({ statement: text.slice(0, 80) }, 'background jobs statement after stop dropped');
          return new Promise<never>(() => {});
        }
        return database.raw.query(text, values);
      },
    },
    schema: 'pgboss',
    // PGlite is one connection: poll gently; PostgreSQL deployments are fine with the same.
    monitorStateIntervalSeconds: 60,
  });
  boss.on('error', (error) => log.error({ err: error }, 'background jobs error'));
  const queues = new Set<string>();
  const stately = new Set<string>();
  /** This process's worker of each queue, woken when this process sends to it. */
  const workers = new Map<string, string>();
  let started = false;

  async function ensureQueue(name: string) {
    if (queues.has(name)) return;
    await boss.createQueue(name, {
      name,
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 15 * 60,
      ...(stately.has(name) ? { policy: 'stately' as const } : {}),
    });
    queues.add(name);
  }

  return {
    async start() {
      stopped = false;
      await boss.start();
      started = true;
    },
    async send(name, data, options = {}) {
      if (!started) throw new Error('Jobs are not started.');
      await ensureQueue(name);
      await boss.send(name, data, {
        singletonKey: options.singletonKey,
        ...(options.startAfterSeconds ? { startAfter: Math.ceil(options.startAfterSeconds) } : {}),
      });
      // A job this process can run starts now rather than at the worker's next poll (up to a
      // second later); other processes still find it at their next poll. A delayed one waits.
      const worker = workers.get(name);
      if (worker && !options.startAfterSeconds) boss.notifyWorker(worker);
    },
    nudgeQueue(name) {
      stately.add(name);
    },
    async work(name, handler) {
      await ensureQueue(name);
      const worker = await boss.work<object>(
        name,
        { pollingIntervalSeconds: 1, batchSize: 1 },
        async (jobs) => {
          for (const job of jobs) {
            log.info({ job: name, id: job.id }, 'job started');
            await handler(job.data as never);
            log.info({ job: name, id: job.id }, 'job done');
          }
        },
      );
      workers.set(name, worker);
    },
    async schedule(name, cron) {
      await ensureQueue(name);
      await boss.schedule(name, cron, {}, { tz: 'UTC' });
    },
    async stop() {
      if (started) await boss.stop({ graceful: true, timeout: 10_000 });
      started = false;
      stopped = true;
      workers.clear();
    },
  };
}
