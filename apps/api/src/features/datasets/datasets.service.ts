import {
  datasetEditableStatuses,
  datasetResettableStatuses,
  messages,
  type CreateDatasetBody,
  type Dataset,
  type DatasetStatus,
  type UpdateDatasetBody,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ConfigurationCopier } from './copy-configuration.repository.js';
import type { DatasetsRepository } from './datasets.repository.js';

export type DatasetJob = 'dataset.provision' | 'dataset.delete' | 'dataset.reset';
export interface DatasetJobData {
  tenantId: string;
  datasetId: number;
}

/** What a change asks the background worker to do once its transaction has committed. */
export interface DatasetChange {
  dataset: Dataset;
  job?: DatasetJob;
}

function assertNotDefault(dataset: Dataset) {
  if (dataset.hostSystemName === 'Default') {
    throw new ConflictError(
      'The default company cannot be changed, reset or deleted.',
      'defaultDataset',
    );
  }
}

function assertStatus(dataset: Dataset, allowed: readonly DatasetStatus[]) {
  if (!allowed.includes(dataset.status)) {
    throw new ConflictError(
      `Company ${dataset.id} is ${dataset.status}; this needs it to be ${allowed.join(' or ')}.`,
      'datasetStatus',
    );
  }
}

export function createDatasetsService(deps: {
  repository: DatasetsRepository;
  /** What a new company copies from its copy-from company, in order (copy-configuration.ts). */
  copiers?: ConfigurationCopier[];
}) {
  const { repository } = deps;
  const copiers = deps.copiers ?? [];

  async function load(tx: Tx, tenantId: string, id: number) {
    const dataset = await repository.find(tx, tenantId, id);
    if (!dataset) throw new NotFoundError(`Company ${id} was not found.`);
    return dataset;
  }

  /** load for a change: two simultaneous changes of one company run one after the other. */
  async function loadForChange(tx: Tx, tenantId: string, id: number) {
    const dataset = await repository.findForUpdate(tx, tenantId, id);
    if (!dataset) throw new NotFoundError(`Company ${id} was not found.`);
    return dataset;
  }

  /** spec 1 §5: both duplicate messages can show at once. */
  async function assertUniqueHostIds(
    tx: Tx,
    tenantId: string,
    hostId: string,
    customHostId: string,
    exceptId?: number,
  ) {
    // Held until commit, so a simultaneous create or update with the same ids waits and then sees this one.
    await repository.lock(tx, tenantId);
    const duplicate = await repository.duplicates(tx, tenantId, hostId, customHostId, exceptId);
    const errors: Record<string, string[]> = {};
    if (duplicate.hostId) errors.hostId = [messages.datasetHostIdExists];
    if (duplicate.customHostId) errors.customHostId = [messages.datasetCustomHostIdExists];
    if (Object.keys(errors).length > 0) {
      throw new AppError(
        409,
        'Conflict',
        'Another company already uses this host id or custom host id.',
        {
          errorCode: Object.values(errors)[0]![0],
          errors,
        },
      );
    }
  }

  return {
    load,

    async create(
      tx: Tx,
      tenantId: string,
      body: CreateDatasetBody & { copyFromDatasetId: number },
    ): Promise<DatasetChange> {
      await assertUniqueHostIds(tx, tenantId, body.hostId, body.customHostId);
      const copyFrom = body.copyFromDatasetId > 0 ? body.copyFromDatasetId : null;
      if (copyFrom !== null) {
        const source = await repository.find(tx, tenantId, copyFrom);
        if (!source)
          throw new ValidationError({ copyFromDatasetId: [`Company ${copyFrom} was not found.`] });
      }
      const id = await repository.nextId(tx, tenantId);
      const dataset = await repository.insert(tx, {
        tenantId,
        id,
        name: body.name,
        shortName: body.shortName ?? null,
        description: body.description ?? null,
        status: 'Initialise',
        hostId: body.hostId,
        customHostId: body.customHostId,
        hostSystemName: body.hostSystemName,
        currency: body.currency ?? 'GBP',
        copyFromDatasetId: copyFrom,
        type: body.hostDemoSystem ? 'Demo' : 'Production',
      });
      // spec 1 §2.7 copy-from: in the creating transaction, so the company exists with its copied
      // configuration or not at all.
      if (copyFrom !== null) {
        const scope = {
          tenantId,
          fromDatasetId: copyFrom,
          toDatasetId: id,
          newIds: new Map<string, string>(),
        };
        for (const copy of copiers) await copy(tx, scope);
      }
      return { dataset, job: 'dataset.provision' };
    },

    async update(tx: Tx, tenantId: string, body: UpdateDatasetBody): Promise<DatasetChange> {
      const current = await loadForChange(tx, tenantId, body.id);
      assertNotDefault(current);
      assertStatus(current, datasetEditableStatuses);
      await assertUniqueHostIds(tx, tenantId, body.hostId, body.customHostId, body.id);
      const dataset = await repository.update(tx, tenantId, body.id, {
        name: body.name,
        shortName: body.shortName ?? null,
        description: body.description ?? null,
        hostSystemName: body.hostSystemName,
        hostId: body.hostId,
        customHostId: body.customHostId,
      });
      return { dataset: dataset! };
    },

    async remove(tx: Tx, tenantId: string, id: number): Promise<DatasetChange> {
      const current = await loadForChange(tx, tenantId, id);
      assertNotDefault(current);
      assertStatus(current, datasetEditableStatuses);
      await repository.transition(tx, tenantId, id, datasetEditableStatuses, 'Deleting');
      return { dataset: { ...current, status: 'Deleting' }, job: 'dataset.delete' };
    },

    async reset(tx: Tx, tenantId: string, id: number): Promise<DatasetChange> {
      const current = await loadForChange(tx, tenantId, id);
      assertNotDefault(current);
      if (current.type !== 'Demo') {
        throw new ConflictError('Only a demo company can have its data reset.', 'notDemoDataset');
      }
      assertStatus(current, datasetResettableStatuses);
      await repository.transition(tx, tenantId, id, datasetResettableStatuses, 'Resetting');
      return { dataset: { ...current, status: 'Resetting' }, job: 'dataset.reset' };
    },
  };
}
export type DatasetsService = ReturnType<typeof createDatasetsService>;
