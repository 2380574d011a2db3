import { Stack } from '@mantine/core';
import { DataGrid } from '@/ui/data-grid';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import {
  useRelatedPaymentTransactions,
  type PaymentTransactionOwner,
} from '../api/get-related-payment-transactions';
import { useRelatedPaymentTransactionsColumns } from '../table/use-related-payment-transactions-columns';

/** The payment transactions of an account or a payer, newest first (spec 2 §2 Account and Payer detail). */
export function RelatedPaymentTransactions({ owner }: { owner: PaymentTransactionOwner }) {
  const grid = useGridState({ defaultSort: { field: 'statusDateTime', direction: 'desc' } });
  const payments = useRelatedPaymentTransactions(owner, grid.query);
  const columns = useRelatedPaymentTransactionsColumns();
  return (
    <Stack gap="sm">
      <GridToolbar
        grid={grid}
        listName="payment transactions"
        placeholder="Reference, customer or amount"
      />
      <DataGrid
        label="Payment transactions"
        rowHref={(payment) => `/payment-transactions/${payment.id}`}
        card={{
          title: 'ledgerlineReference',
          subtitle: 'customerName',
          amount: 'totalAmount',
          status: 'status',
          date: 'statusDateTime',
        }}
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
