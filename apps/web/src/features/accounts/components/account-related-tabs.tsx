import { Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { DataGrid } from '@/ui/data-grid';
import { usePermission } from '@/ui/use-permission';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useAccountPaymentRequests } from '../api/get-account-payment-requests';
import { useAccountTransactions } from '../api/get-account-transactions';
import { useAccountPaymentRequestsColumns } from '../table/use-account-payment-requests-columns';
import { useTransactionColumns } from '@/ui/use-transaction-columns';
import { RequestPaymentDialog } from './request-payment-dialog';

/** spec 2 §2 Account detail, transactions tab; spec 2 §9: transaction date descending. */
export function AccountTransactionsTab({ accountId }: { accountId: string }) {
  const grid = useGridState({ defaultSort: { field: 'transactionDate', direction: 'desc' } });
  const transactions = useAccountTransactions(accountId, grid.query);
  const columns = useTransactionColumns({ withAccountName: false });
  // Asking for several unpaid invoices in one request needs what creating a request needs.
  const canRequest = usePermission('EditPaymentRequest');
  const [requestOpened, requestDialog] = useDisclosure(false);
  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Button variant="light" onClick={requestDialog.open} disabled={!canRequest}>
          Request payment
        </Button>
      </Group>
      <RequestPaymentDialog
        accountId={accountId}
        opened={requestOpened}
        onClose={requestDialog.close}
      />
      <GridToolbar
        grid={grid}
        listName="the account’s transactions"
        placeholder="Reference or amount"
      />
      <DataGrid
        label="Transactions"
        rowHref={(transaction) => `/transactions/${transaction.id}`}
        card={{
          title: 'transactionReference',
          subtitle: 'transactionType',
          amount: 'transactionAmount',
          status: 'paidStatus',
          date: 'transactionDate',
        }}
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

/** spec 2 §2 Account detail, payment requests tab; spec 2 §9: created on descending. */
export function AccountPaymentRequestsTab({ accountId }: { accountId: string }) {
  const grid = useGridState({ defaultSort: { field: 'createdOn', direction: 'desc' } });
  const requests = useAccountPaymentRequests(accountId, grid.query);
  const columns = useAccountPaymentRequestsColumns();
  return (
    <Stack gap="sm">
      <GridToolbar
        grid={grid}
        listName="the account’s payment requests"
        placeholder="Customer, reference or amount"
      />
      <DataGrid
        label="Payment requests"
        rowHref={(request) => `/payment-requests/${request.id}`}
        card={{
          title: 'requestType',
          subtitle: 'customerName',
          amount: 'amountToPay',
          status: 'requestStatus',
          date: 'createdOn',
        }}
        grid={grid}
        columns={columns}
        records={requests.data?.items}
        totalRecords={requests.data?.totalItems ?? 0}
        totalEstimated={requests.data?.totalItemsEstimated ?? false}
        fetching={requests.isPending || requests.isPlaceholderData}
        noRecordsText="No payment requests found"
      />
    </Stack>
  );
}
