import type { Dataset } from '@ledgerline/contract';
import { Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { DataGrid } from '@/ui/data-grid';
import { failureMessage } from '@/ui/form-errors';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { usePermission } from '@/ui/use-permission';
import { useDeleteDataset } from '../api/delete-dataset';
import { useDatasetsPage } from '../api/get-datasets-page';
import { useCompaniesColumns } from '../table/use-companies-columns';
import { datasetMessages } from '../utils/dataset-errors';
import { CompanyFormDialog } from './company-form-dialog';

/** The dialog keeps its company while it closes; `key` gives every opening a fresh form. */
interface Dialog {
  opened: boolean;
  dataset?: Dataset;
  key: number;
}

/** spec 1 §2.7 /settings/companies. */
export function CompaniesPage() {
  const grid = useGridState({
    name: 'companies',
    defaultSort: { field: 'id', direction: 'asc' },
    address: true,
  });
  const companies = useDatasetsPage(grid.query);
  const canCreate = usePermission('CreateCompanies');
  const canEdit = usePermission('EditCompanies');
  const canDelete = usePermission('DeleteCompanies');
  const [dialog, setDialog] = useState<Dialog>({ opened: false, key: 0 });
  const { mutate: deleteDataset } = useDeleteDataset();

  const open = useCallback(
    (dataset?: Dataset) =>
      setDialog((current) => ({ opened: true, dataset, key: current.key + 1 })),
    [],
  );
  const onDelete = useCallback(
    (dataset: Dataset) =>
      confirmDestructive({
        title: 'Delete Company',
        message: `Are you sure you want to delete the company ${dataset.name}? All of its data will be permanently deleted.`,
        onConfirm: () =>
          deleteDataset(dataset.id, {
            onSuccess: () =>
              notifications.show({ color: 'green', message: datasetMessages.deleting }),
            onError: (error) =>
              notifications.show({
                color: 'red',
                message: failureMessage(datasetMessages.deleteFailed, error),
              }),
          }),
      }),
    [deleteDataset],
  );
  const columns = useCompaniesColumns({ canEdit, canDelete, onEdit: open, onDelete });

  return (
    <Stack gap="lg">
      <PageHeader
        title="Companies"
        description="The companies of this account. Each one is linked to a company in your ERP host system by its host id."
        actions={
          <Button leftSection={<IconPlus size={16} />} disabled={!canCreate} onClick={() => open()}>
            Add Company
          </Button>
        }
      />
      <GridToolbar grid={grid} listName="companies" placeholder="Name, host id or company id" />
      <DataGrid
        label="Companies"
        grid={grid}
        columns={columns}
        records={companies.data?.items}
        totalRecords={companies.data?.totalItems ?? 0}
        fetching={companies.isPending || companies.isPlaceholderData}
        noRecordsText="No companies found"
      />
      <CompanyFormDialog
        key={dialog.key}
        opened={dialog.opened}
        dataset={dialog.dataset}
        onClose={() => setDialog((current) => ({ ...current, opened: false }))}
      />
    </Stack>
  );
}
