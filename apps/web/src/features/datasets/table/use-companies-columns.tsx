import {
  baseCurrencies,
  datasetEditableStatuses,
  datasetStatuses,
  datasetTypes,
  hostSystems,
  rebuildStatuses,
  type Dataset,
} from '@ledgerline/contract';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { spaceWords } from '@/ui/words';
import { DatasetStatusDisplay } from '../components/dataset-status';

/** spec 1 §2.7: edit and delete need a settled company. */
export function isDatasetEditable(dataset: Dataset): boolean {
  return (datasetEditableStatuses as readonly string[]).includes(dataset.status);
}

/** spec 1 §2.7: the company of the default host system has no row actions. */
export function isDefaultDataset(dataset: Dataset): boolean {
  return dataset.hostSystemName === 'Default';
}

interface CompaniesColumnsOptions {
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (dataset: Dataset) => void;
  onDelete: (dataset: Dataset) => void;
}

const enumOptions = (values: readonly string[]) =>
  values.map((value) => ({ value, label: spaceWords(value) }));

/** The record's own columns; every one sorts and filters on the server. */
const dataColumns: DataGridColumn<Dataset>[] = [
  { accessor: 'id', title: 'Id', sortable: true, filter: { type: 'number' }, width: 80 },
  { accessor: 'name', title: 'Name', sortable: true, filter: { type: 'text' } },
  {
    accessor: 'type',
    title: 'Type',
    sortable: true,
    filter: { type: 'select', options: datasetTypes },
  },
  {
    accessor: 'hostSystemName',
    title: 'Host system',
    sortable: true,
    filter: { type: 'select', options: hostSystems },
  },
  { accessor: 'hostId', title: 'Host id', sortable: true, filter: { type: 'text' } },
  {
    accessor: 'customHostId',
    title: 'Custom host id',
    sortable: true,
    filter: { type: 'text' },
  },
  {
    accessor: 'currency',
    title: 'Currency',
    sortable: true,
    filter: { type: 'select', options: baseCurrencies },
  },
  {
    accessor: 'rebuildStatus',
    title: 'Rebuild status',
    sortable: true,
    filter: { type: 'select', options: enumOptions(rebuildStatuses) },
    render: (dataset) => spaceWords(dataset.rebuildStatus),
  },
  {
    accessor: 'status',
    title: 'Status',
    sortable: true,
    filter: { type: 'select', options: datasetStatuses },
    render: (dataset) => <DatasetStatusDisplay status={dataset.status} />,
  },
  {
    accessor: 'lastSync',
    title: 'Last synced',
    sortable: true,
    filter: { type: 'date' },
    noWrap: true,
    render: (dataset) => <DateTime value={dataset.lastSync} />,
  },
];

/** Edit and Delete, for a company other than the default one, when it may be changed. */
function CompanyActions({
  dataset,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: CompaniesColumnsOptions & { dataset: Dataset }) {
  const editable = isDatasetEditable(dataset);
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit" disabled={!canEdit || !editable}>
        <ActionIcon
          variant="subtle"
          aria-label={`Edit ${dataset.name}`}
          disabled={!canEdit || !editable}
          onClick={() => onEdit(dataset)}
        >
          <IconPencil size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete" disabled={!canDelete || !editable}>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Delete ${dataset.name}`}
          disabled={!canDelete || !editable}
          onClick={() => onDelete(dataset)}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** spec 1 §2.7 grid columns; every one but actions sorts and filters on the server. */
export function useCompaniesColumns({
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: CompaniesColumnsOptions) {
  return useMemo(
    (): DataGridColumn<Dataset>[] => [
      ...dataColumns,
      {
        accessor: 'actions',
        title: 'Actions',
        textAlign: 'right',
        width: 100,
        render: (dataset) =>
          isDefaultDataset(dataset) ? null : (
            <CompanyActions
              dataset={dataset}
              canEdit={canEdit}
              canDelete={canDelete}
              onEdit={onEdit}
              onDelete={onDelete}
            />
          ),
      },
    ],
    [canEdit, canDelete, onEdit, onDelete],
  );
}
