import { disputeStages, type PaymentDispute } from '@ledgerline/contract';
import { Anchor, Stack } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { disputeStageTone } from './refunds-and-disputes';
import { DataGrid, type DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { PageHeader } from '@/ui/page-header';
import { StatusBadge } from '@/ui/status-tones';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { spaceWords } from '@/ui/words';
import { useDisputes } from '../api/get-disputes';

function useDisputeColumns() {
  return useMemo(
    (): DataGridColumn<PaymentDispute>[] => [
      {
        accessor: 'openedOn',
        title: 'Opened on',
        sortable: true,
        filter: { type: 'date' },
        noWrap: true,
        render: (dispute) => <DateTime value={dispute.openedOn} />,
      },
      {
        accessor: 'stage',
        title: 'Stage',
        sortable: true,
        filter: {
          type: 'select',
          options: disputeStages.map((value) => ({ value, label: spaceWords(value) })),
        },
        render: (dispute) => <StatusBadge status={dispute.stage} tones={disputeStageTone} />,
      },
      {
        accessor: 'customer',
        title: 'Customer',
        render: (dispute) =>
          dispute.paymentTransaction?.customerName ??
          dispute.paymentTransaction?.companyName ??
          '-',
      },
      {
        accessor: 'payment',
        title: 'Payment',
        noWrap: true,
        render: (dispute) => (
          <Anchor component={Link} to={`/payment-transactions/${dispute.paymentTransactionId}`}>
            {dispute.paymentTransaction?.ledgerlineReference ?? 'Payment'}
          </Anchor>
        ),
      },
      {
        accessor: 'reason',
        title: 'Reason',
        filter: { type: 'text' },
        render: (dispute) => (dispute.reason ? spaceWords(dispute.reason.replace(/_/g, ' ')) : '-'),
      },
      {
        accessor: 'respondBy',
        title: 'Respond by',
        sortable: true,
        filter: { type: 'date' },
        noWrap: true,
        render: (dispute) => (dispute.respondBy ? <DateTime value={dispute.respondBy} /> : '-'),
      },
      {
        accessor: 'amount',
        title: 'Amount',
        sortable: true,
        filter: { type: 'number' },
        textAlign: 'right',
        noWrap: true,
        render: (dispute) => <Money amount={dispute.amount} currency={dispute.currency} />,
      },
      {
        accessor: 'view',
        title: '',
        textAlign: 'right',
        render: (dispute) => (
          <Anchor
            component={Link}
            to={`/payment-transactions/${dispute.paymentTransactionId}`}
            aria-label={`View the payment of dispute ${dispute.disputeReference}`}
          >
            View
          </Anchor>
        ),
      },
    ],
    [],
  );
}

/**
 * Every dispute and chargeback the providers reported, newest first; the open ones
 * (Opened, Under review) are those to answer at the provider before their respond-by date.
 */
export function DisputesPage() {
  const grid = useGridState({
    name: 'disputes',
    defaultSort: { field: 'openedOn', direction: 'desc' },
    address: true,
  });
  const disputes = useDisputes(grid.query, { placeholderData: keepPreviousData });
  const columns = useDisputeColumns();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Disputes"
        description="Disputes and chargebacks your payment providers reported. Answer open ones at the provider before their respond-by date."
      />
      <GridToolbar
        grid={grid}
        listName="disputes"
        placeholder="Dispute reference, reason or amount"
      />
      <DataGrid
        label="Disputes"
        rowHref={(dispute) => `/payment-transactions/${dispute.paymentTransactionId}`}
        grid={grid}
        columns={columns}
        records={disputes.data?.items}
        totalRecords={disputes.data?.totalItems ?? 0}
        fetching={disputes.isPending || disputes.isPlaceholderData}
        noRecordsText="No disputes found"
      />
    </Stack>
  );
}
