import type { DatasetStatus } from '@ledgerline/contract';
import { describe, expect, it } from 'vitest';
import { aDataset } from '@/test/fixtures';
import { datasetsPollInterval, workingDatasetPollMs } from './get-datasets-all';

const withStatuses = (statuses: DatasetStatus[]) =>
  statuses.map((status, id) => aDataset({ id, status }));

describe('companies list polling', () => {
  it('refetches every few seconds while a company is in a working state', () => {
    expect(datasetsPollInterval(withStatuses(['Active', 'Migrating']))).toBe(workingDatasetPollMs);
    expect(datasetsPollInterval(withStatuses(['Initialise']))).toBe(workingDatasetPollMs);
  });

  it('does not poll when every company is settled', () => {
    expect(datasetsPollInterval(withStatuses(['Active', 'Inactive', 'Error']))).toBe(false);
    expect(datasetsPollInterval(undefined)).toBe(false);
  });
});
