import { Stack } from '@mantine/core';
import { DataGrid } from '@/ui/data-grid';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { usePayers } from '../api/get-payers';
import { usePayersColumns } from '../table/use-payers-columns';

/** spec 1 §2.1 /payers: the payers of every account, as the account's payers tab shows them. */
export function PayersPage() {
  const grid = useGridState({
    name: 'payer',
    defaultSort: { field: 'createdOn', direction: 'desc' },
    address: true,
  });
  const payers = usePayers(grid.query);
  const columns = usePayersColumns();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Payers"
        description="The people and companies who pay for your customer accounts."
      />
      <GridToolbar grid={grid} listName="payers" placeholder="Company, name, e-mail or post code" />
      <DataGrid
        label="Payers"
        rowHref={(payer) => `/accounts/${payer.accountId}/payers/${payer.id}`}
        grid={grid}
        columns={columns}
        records={payers.data?.items}
        totalRecords={payers.data?.totalItems ?? 0}
        totalEstimated={payers.data?.totalItemsEstimated ?? false}
        fetching={payers.isPending || payers.isPlaceholderData}
        noRecordsText="No payers found"
      />
    </Stack>
  );
}
