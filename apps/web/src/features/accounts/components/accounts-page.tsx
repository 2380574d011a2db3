import { Stack } from '@mantine/core';
import { DataGrid } from '@/ui/data-grid';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useAccounts } from '../api/get-accounts';
import { useAccountsColumns } from '../table/use-accounts-columns';

/** spec 2 §2 Accounts list; spec 2 §9: sorted by account reference ascending. Grid name 'account'. */
export function AccountsPage() {
  const grid = useGridState({
    name: 'account',
    defaultSort: { field: 'accountReference', direction: 'asc' },
    address: true,
  });
  const accounts = useAccounts(grid.query);
  const columns = useAccountsColumns();

  return (
    <Stack gap="lg">
      <PageHeader
        title="Accounts"
        description="Your customer accounts, as your ERP system sends them."
      />
      <GridToolbar grid={grid} listName="accounts" placeholder="Reference, name or balance" />
      <DataGrid
        label="Accounts"
        rowHref={(account) => `/accounts/${account.id}`}
        card={{ title: 'accountReference', subtitle: 'name', amount: 'balance' }}
        grid={grid}
        columns={columns}
        records={accounts.data?.items}
        totalRecords={accounts.data?.totalItems ?? 0}
        totalEstimated={accounts.data?.totalItemsEstimated ?? false}
        fetching={accounts.isPending || accounts.isPlaceholderData}
        noRecordsText="No accounts found"
      />
    </Stack>
  );
}
