import { Stack } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { DataGrid } from '@/ui/data-grid';
import { PageHeader } from '@/ui/page-header';
import { useGridState } from '@/ui/use-grid-state';
import { useTransactions } from '../api/get-transactions';
import { useTransactionColumns } from '@/ui/use-transaction-columns';

/** spec 2 §2 Accounting transactions list; default sort transaction date descending (§9). */
export function TransactionsPage() {
  const grid = useGridState({
    name: 'transaction',
    defaultSort: { field: 'transactionDate', direction: 'desc' },
  });
  const transactions = useTransactions(grid.query, { placeholderData: keepPreviousData });
  const columns = useTransactionColumns();

  return (
    <Stack gap="lg">
      <PageHeader
        title="Transactions"
        description="Invoices, credit notes and the other accounting transactions your ERP system sends."
      />
      <DataGrid
        label="Transactions"
        rowHref={(transaction) => `/transactions/${transaction.id}`}
        grid={grid}
        columns={columns}
        records={transactions.data?.items}
        totalRecords={transactions.data?.totalItems ?? 0}
        totalEstimated={transactions.data?.totalItemsEstimated ?? false}
        fetching={transactions.isPending || transactions.isPlaceholderData}
        noRecordsText="No transactions found"
      />
    </Stack>
  );
}
