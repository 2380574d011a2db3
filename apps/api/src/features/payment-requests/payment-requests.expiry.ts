import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import type { PaymentRequestsService } from './payment-requests.service.js';

export const expiryQueue = 'payment-requests.expire';

/**
 * Payment requests past their valid-until time become Expired (spec 2 §3 request statuses), each
 * with a payment-request.expired web hook event in the same transaction (issue 15). Open and
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
      const expired = (
        (await tx.execute(sql`
          update payment_requests p set request_status = 'Expired'
          from (
            select tenant_id, dataset_id, id from payment_requests
            where request_status in ('Open', 'PartCompleted') and valid_until < now()
            limit ${limit} for update skip locked
          ) due
          where p.tenant_id = due.tenant_id and p.dataset_id = due.dataset_id and p.id = due.id
          returning p.tenant_id as "tenantId", p.dataset_id as "datasetId", p.id`)) as unknown as {
          rows: { tenantId: string; datasetId: number; id: string }[];
        }
      ).rows;
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
