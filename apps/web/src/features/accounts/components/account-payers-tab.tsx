import { Stack } from '@mantine/core';
import { DataGrid } from '@/ui/data-grid';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useAccountPayers } from '../api/get-account-payers';
import { usePayersColumns } from '../table/use-payers-columns';

/** spec 2 §2 Account detail, payers tab; spec 2 §9: created date descending. */
export function AccountPayersTab({ accountId }: { accountId: string }) {
  const grid = useGridState({ defaultSort: { field: 'createdOn', direction: 'desc' } });
  const payers = useAccountPayers(accountId, grid.query);
  const columns = usePayersColumns();
  return (
    <Stack gap="sm">
      <GridToolbar
        grid={grid}
        listName="the account’s payers"
        placeholder="Company, name, e-mail or post code"
      />
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
