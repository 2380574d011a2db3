import { Stack } from '@mantine/core';
import { DataGrid } from '@/ui/data-grid';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useBanks } from '../api/get-banks';
import { useBanksColumns } from '../table/use-banks-columns';

/** spec 2 §2 Banks list; spec 2 §9: sorted by account name ascending. Grid name 'bank'. */
export function BanksPage() {
  const grid = useGridState({
    name: 'bank',
    defaultSort: { field: 'accountName', direction: 'asc' },
    address: true,
  });
  const banks = useBanks(grid.query);
  const columns = useBanksColumns();

  return (
    <Stack gap="lg">
      <PageHeader
        title="Banks"
        description="The bank accounts of this company, as your ERP system sends them."
      />
      <GridToolbar grid={grid} listName="banks" placeholder="Account name, bank, number or IBAN" />
      <DataGrid
        label="Banks"
        rowHref={(bank) => `/banks/${bank.id}`}
        grid={grid}
        columns={columns}
        records={banks.data?.items}
        totalRecords={banks.data?.totalItems ?? 0}
        fetching={banks.isPending || banks.isPlaceholderData}
        noRecordsText="No banks found"
      />
    </Stack>
  );
}
