import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import type { DatasetsRepository } from './datasets.repository.js';
import type { DatasetJob, DatasetJobData } from './datasets.service.js';

/** Refills a demo company; areas with demo data (receivables) register their generators here. */
export type DemoDataGenerator = (
  tx: Parameters<Parameters<Database['withTenant']>[1]>[0],
  scope: { tenantId: string; datasetId: number },
) => Promise<void>;

export interface DatasetLifecycleOptions {
  database: Database;
  jobs: Jobs;
  repository: DatasetsRepository;
  log: Logger;
  demoData?: DemoDataGenerator[];
}

/**
 * The company lifecycle of spec 1 §4 as durable jobs: create → Initialise → Provisioning → Active;
 * delete → Deleting → gone; reset → Resetting → Active. A failure leaves the company in Error with
 * the reason in the log. Each step is idempotent, so a job retried or re-sent after a restart is safe.
 */
export function createDatasetLifecycle(options: DatasetLifecycleOptions) {
  const { database, jobs, repository, log } = options;
  const demoData = options.demoData ?? [];

  async function fail(data: DatasetJobData, step: string, error: unknown) {
    log.error({ err: error, tenantId: data.tenantId, datasetId: data.datasetId, step }, 'company job failed');
    await database.withTenant(data.tenantId, (tx) =>
      repository.transition(tx, data.tenantId, data.datasetId, ['Initialise', 'Provisioning', 'Deleting', 'Resetting'], 'Error'),
    );
  }

  async function provision(data: DatasetJobData) {
    const { tenantId, datasetId } = data;
    try {
      const moved = await database.withTenant(tenantId, (tx) =>
        repository.transition(tx, tenantId, datasetId, ['Initialise', 'Provisioning'], 'Provisioning'),
      );
      if (!moved) return; // already provisioned, deleted, or failed
      await database.withTenant(tenantId, async (tx) => {
        // The copy-from configuration was copied when the company was created (datasets.service).
        const dataset = await repository.find(tx, tenantId, datasetId);
        if (dataset?.type === 'Demo') for (const generate of demoData) await generate(tx, { tenantId, datasetId });
        await repository.transition(tx, tenantId, datasetId, ['Provisioning'], 'Active');
      });
    } catch (error) {
      await fail(data, 'provision', error);
    }
  }

  async function remove(data: DatasetJobData) {
    const { tenantId, datasetId } = data;
    try {
      await database.withTenant(tenantId, async (tx) => {
        const dataset = await repository.find(tx, tenantId, datasetId);
        if (dataset?.status !== 'Deleting') return;
        await repository.removeWithData(tx, tenantId, datasetId);
      });
    } catch (error) {
      await fail(data, 'delete', error);
    }
  }

  async function reset(data: DatasetJobData) {
    const { tenantId, datasetId } = data;
    try {
      await database.withTenant(tenantId, async (tx) => {
        const dataset = await repository.find(tx, tenantId, datasetId);
        if (dataset?.status !== 'Resetting') return;
        for (const generate of demoData) await generate(tx, { tenantId, datasetId });
        await repository.transition(tx, tenantId, datasetId, ['Resetting'], 'Active');
      });
    } catch (error) {
      await fail(data, 'reset', error);
    }
  }

  const handlers: Record<DatasetJob, (data: DatasetJobData) => Promise<void>> = {
    'dataset.provision': provision,
    'dataset.delete': remove,
    'dataset.reset': reset,
  };

  return {
    async register() {
      for (const [name, handler] of Object.entries(handlers)) await jobs.work<DatasetJobData>(name, handler);
    },
    send: (job: DatasetJob, data: DatasetJobData) => jobs.send(job, data),
    /** A process that stopped between a commit and its enqueue leaves a company working: resume it. */
    async resume() {
      const working = await repository.working(database.db);
      for (const { tenantId, id, status } of working) {
        const job: DatasetJob =
          status === 'Deleting' ? 'dataset.delete' : status === 'Resetting' ? 'dataset.reset' : 'dataset.provision';
        await jobs.send(job, { tenantId, datasetId: id });
      }
    },
  };
}
export type DatasetLifecycle = ReturnType<typeof createDatasetLifecycle>;
