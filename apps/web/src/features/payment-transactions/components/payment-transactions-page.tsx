import { Group, Stack, Switch } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { keepPreviousData } from '@tanstack/react-query';
import { DataGrid } from '@/ui/data-grid';
import { PageHeader } from '@/ui/page-header';
import { useGridState } from '@/ui/use-grid-state';
import { usePaymentTransactions } from '../api/get-payment-transactions';
import { usePaymentTransactionColumns } from '../table/use-payment-transaction-columns';

/** spec 2 §2 Payment transactions list; default sort statusDateTime descending (§9). */
export function PaymentTransactionsPage() {
  const grid = useGridState({ name: 'payment transaction', defaultSort: { field: 'statusDateTime', direction: 'desc' } });
  const payments = usePaymentTransactions(grid.query, { placeholderData: keepPreviousData });
  const [showId, setShowId] = useLocalStorage({ key: 'ledgerline.payment-transactions.show-id', defaultValue: false });
  const columns = usePaymentTransactionColumns({ showId });

  return (
    <Stack gap="lg">
      <PageHeader title="Payment Transactions" description="Payments and refunds that arrived through your payment providers." />
      <Group justify="flex-end">
        <Switch label="Show id" checked={showId} onChange={(event) => setShowId(event.currentTarget.checked)} />
      </Group>
      <DataGrid
        label="Payment transactions"
        grid={grid}
        columns={columns}
        records={payments.data?.items}
        totalRecords={payments.data?.totalItems ?? 0}
        totalEstimated={payments.data?.totalItemsEstimated ?? false}
        fetching={payments.isPending || payments.isPlaceholderData}
        noRecordsText="No payment transactions found"
      />
    </Stack>
  );
}
