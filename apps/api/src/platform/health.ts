import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { problem, sendProblemWithRetry } from './problems.js';

const healthCheckSeconds = 3;

function withinSeconds<T>(seconds: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${seconds} s.`)), seconds * 1000);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** GET /api/health: alive, and the database answers within a few seconds. */
export function registerHealth(app: FastifyInstance, database: Database): void {
  app.get(
    '/api/health',
    {
      config: { access: 'none' },
      schema: { tags: ['info'], summary: 'Liveness and database check' },
    },
    async (_request, reply) => {
      try {
        // A connection lost without a word (a network drop) would leave the check waiting.
        await withinSeconds(healthCheckSeconds, database.db.execute(sql`select 1`));
        return { status: 'Healthy', database: 'ok' };
      } catch (error) {
        app.log.error({ err: error }, 'health check failed');
        return sendProblemWithRetry(reply, problem(503, 'The database is not reachable.'));
      }
    },
  );
}
