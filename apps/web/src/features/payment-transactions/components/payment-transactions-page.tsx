import { paymentTransactionStatuses } from '@ledgerline/contract';
import { Button, Group, Stack, Switch } from '@mantine/core';
import { IconDownload, IconHourglass, IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useState } from 'react';
import { useLocalStorage } from '@mantine/hooks';
import { keepPreviousData } from '@tanstack/react-query';
import { DataGrid } from '@/ui/data-grid';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { spaceWords } from '@/ui/words';
import { usePermission } from '@/ui/use-permission';
import { usePaymentTransactions } from '../api/get-payment-transactions';
import { usePaymentTransactionColumns } from '../table/use-payment-transaction-columns';
import { ExportDialog } from './export-dialog';
import { ImportDialog } from './import-dialog';

const statusOptions = paymentTransactionStatuses.map((value) => ({
  value,
  label: spaceWords(value),
}));

/** spec 2 §2 Payment transactions list; default sort statusDateTime descending (§9). */
/** Reservations, and Export and Import for those who may. */
function PageActions({
  canExport,
  canImport,
  onOpen,
}: {
  canExport: boolean;
  canImport: boolean;
  onOpen: (dialog: 'export' | 'import') => void;
}) {
  return (
    <>
      <Button
        component={Link}
        to="/payment-transactions/reservations"
        variant="default"
        leftSection={<IconHourglass size={16} />}
      >
        Reservations
      </Button>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} />}
        disabled={!canExport}
        onClick={() => onOpen('export')}
      >
        Export
      </Button>
      <Button
        variant="default"
        leftSection={<IconUpload size={16} />}
        disabled={!canImport}
        onClick={() => onOpen('import')}
      >
        Import
      </Button>
    </>
  );
}

export function PaymentTransactionsPage() {
  const grid = useGridState({
    name: 'payment transaction',
    defaultSort: { field: 'statusDateTime', direction: 'desc' },
    address: true,
  });
  const payments = usePaymentTransactions(grid.query, { placeholderData: keepPreviousData });
  const [showId, setShowId] = useLocalStorage({
    key: 'ledgerline.payment-transactions.show-id',
    defaultValue: false,
  });
  const columns = usePaymentTransactionColumns({ showId });
  const canExport = usePermission('ExportPaymentTransactions');
  const canImport = usePermission('ImportAllocatedStatus');
  const [dialog, setDialog] = useState<'export' | 'import' | null>(null);

  return (
    <Stack gap="lg">
      <PageHeader
        title="Payment Transactions"
        description="Payments and refunds that arrived through your payment providers."
        actions={<PageActions canExport={canExport} canImport={canImport} onOpen={setDialog} />}
      />
      <Group justify="space-between" align="flex-end" gap="sm">
        <GridToolbar
          grid={grid}
          listName="payment transactions"
          placeholder="Reference, customer or amount"
          statuses={{ field: 'status', label: 'Status', options: statusOptions }}
        />
        <Switch
          label="Show id"
          checked={showId}
          onChange={(event) => setShowId(event.currentTarget.checked)}
        />
      </Group>
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
      {dialog === 'export' && (
        <ExportDialog
          opened
          onClose={() => setDialog(null)}
          tableFilter={grid.query.filter ?? ''}
          tableFilters={grid.state.filters}
          tableSearch={grid.query.search ?? ''}
        />
      )}
      <ImportDialog opened={dialog === 'import'} onClose={() => setDialog(null)} />
    </Stack>
  );
}
