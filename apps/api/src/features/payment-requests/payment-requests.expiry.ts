import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import { expireDueRequests } from './payment-requests.repository.js';
import type { PaymentRequestsService } from './payment-requests.service.js';

export const expiryQueue = 'payment-requests.expire';

/**
 * Payment requests past their valid-until time become Expired (spec 2 §3 request statuses), each
 * with a payment-request.expired web hook event in the same transaction. Open and
 * PartCompleted requests expire; a scheduled sweep every five minutes, in batches.
 */
export function createPaymentRequestExpiry(deps: {
  database: Database;
  jobs: Jobs;
  service: PaymentRequestsService;
  log: FastifyBaseLogger;
  /** After a commit that expired requests (the web hook delivery's nudge). */
  afterExpired: () => Promise<void>;
}) {
  const { database, jobs, service, log } = deps;

  /** One batch; answers how many requests it expired. */
  async function expireBatch(limit = 500): Promise<number> {
    return database.db.transaction(async (tx) => {
      const expired = await expireDueRequests(tx as Tx, limit);
      for (const row of expired) {
        const scope = { tenantId: row.tenantId, datasetId: Number(row.datasetId) };
        await recordWebhookEvent(tx as Tx, scope, {
          type: 'payment-request.expired',
          recordType: 'PaymentRequest',
          recordId: row.id,
          payload: await service.get(tx as Tx, scope, row.id, false),
        });
      }
      return expired.length;
    });
  }

  async function expire(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await expireBatch();
      total += n;
      if (n > 0) await deps.afterExpired();
      if (n < 500) break;
    }
    if (total > 0) log.info({ expired: total }, 'payment requests expired');
    return total;
  }

  return {
    async register() {
      await jobs.work(expiryQueue, async () => {
        await expire();
      });
      await jobs.schedule(expiryQueue, '*/5 * * * *');
    },
    expire,
  };
}
