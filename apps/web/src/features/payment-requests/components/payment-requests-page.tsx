import { paymentRequestStatuses } from '@ledgerline/contract';
import { Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData } from '@tanstack/react-query';
import { DataGrid } from '@/ui/data-grid';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { spaceWords } from '@/ui/words';
import { usePermission } from '@/ui/use-permission';
import { usePaymentRequests } from '../api/get-payment-requests';
import { usePaymentRequestColumns } from '../table/use-payment-request-columns';
import { NewRequestDialog } from './new-request-dialog';

const statusOptions = paymentRequestStatuses.map((value) => ({ value, label: spaceWords(value) }));

/** spec 2 §2 Payment requests list; default sort createdOn descending (§9); New Request below the grid. */
export function PaymentRequestsPage() {
  const grid = useGridState({
    name: 'payment request',
    defaultSort: { field: 'createdOn', direction: 'desc' },
    address: true,
  });
  const requests = usePaymentRequests(grid.query, { placeholderData: keepPreviousData });
  const columns = usePaymentRequestColumns();
  const canCreate = usePermission('EditPaymentRequest');
  const [dialogOpened, dialog] = useDisclosure(false);

  return (
    <Stack gap="lg">
      <PageHeader
        title="Payment Requests"
        description="Requests for money your customers pay through a link or a QR code."
      />
      <GridToolbar
        grid={grid}
        listName="payment requests"
        placeholder="Customer, reference or amount"
        statuses={{ field: 'requestStatus', label: 'Request status', options: statusOptions }}
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
      <Group>
        <Button onClick={dialog.open} disabled={!canCreate}>
          New Request
        </Button>
      </Group>
      <NewRequestDialog opened={dialogOpened} onClose={dialog.close} />
    </Stack>
  );
}
