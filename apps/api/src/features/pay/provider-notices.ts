import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { CheckoutRegistry } from '../../providers/checkout.js';
import type { PaymentFinish } from './finish.js';
import type { MoneyBack } from './money-back.js';
import type { PayRepository, ProviderRow } from './pay.repository.js';
import {
  drain,
  drainForJob,
  providerNoticeJob,
  safetyNet,
  startDrain,
  type Drain,
  type NoticeJob,
} from './provider-notice-drain.js';
import { createIntake, receive, type ReceiveInput } from './provider-notice-intake.js';

export { providerNoticeJob } from './provider-notice-drain.js';
export type { ReceiveAnswer } from './provider-notice-intake.js';

/**
 * Provider notices (a provider telling us about a payment; not the merchant users' mails of
 * features/notifications, nor the outgoing web hooks): `POST webhooks/{provider}/{configurationId}`
 * stores each verified event once and answers at once (provider-notice-intake.ts); this process
 * then finishes the new ones, exactly once each, with a delayed job per company as the safety net
 * should it stop first (provider-notice-drain.ts).
 */
export function createProviderNotices(deps: {
  database: Database;
  jobs: Jobs;
  repository: PayRepository;
  checkouts: CheckoutRegistry;
  /** The configuration's credentials in clear (payment-providers withCredentials). */
  withCredentials: (row: ProviderRow) => { row: ProviderRow; credentials: Record<string, unknown> };
  finish: PaymentFinish;
  /** Refunds, disputes and late failures the notices report. */
  moneyBack?: MoneyBack;
  /** Seals and opens per-payment provider secrets (Opayo Server's SecurityKey). */
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  /** `<PUBLIC_URL>`: the payer page's return addresses some providers must be answered with. */
  publicUrl: string;
  log: FastifyBaseLogger;
}) {
  const d: Drain = {
    database: deps.database,
    jobs: deps.jobs,
    finish: deps.finish,
    moneyBack: deps.moneyBack,
    log: deps.log,
    draining: new Map(),
    stopping: false,
    safetyNets: new Map(),
  };
  const intake = createIntake({
    ...deps,
    stored: (scope, notificationId) => {
      // Finished at once in this process (a drain under way looks again before it ends)...
      startDrain(d, scope);
      // ...and, durable before the provider hears 200, a job that will look should this
      // process stop first.
      return safetyNet(d, scope, notificationId);
    },
  });
  return {
    receive: (input: ReceiveInput) => receive(intake, input),
    drain: (scope: Parameters<typeof drain>[1]) => drain(d, scope),
    /** The app is closing: no new drain; waits for those under way to end their current payments. */
    async stop() {
      d.stopping = true;
      await Promise.all([...d.draining.values()].map((state) => state.done));
    },
    register: () =>
      deps.jobs.work<NoticeJob>(providerNoticeJob, (job) =>
        drainForJob(d, { tenantId: job.tenantId, datasetId: job.datasetId }),
      ),
  };
}
export type ProviderNotices = ReturnType<typeof createProviderNotices>;
