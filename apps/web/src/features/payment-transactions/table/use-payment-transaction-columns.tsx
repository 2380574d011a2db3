import {
  allocatedStatuses,
  paymentTransactionStatuses,
  paymentTransactionTypes,
  type PaymentTransaction,
} from '@ledgerline/contract';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';
import { allocatedStatusTone, paymentStatusTone, StatusBadge } from '@/ui/status-tones';

const enumOptions = (values: readonly string[]) =>
  values.map((value) => ({ value, label: spaceWords(value) }));

/** spec 2 §2 Payment transactions list: the columns, the id hidden unless asked for. */
export function usePaymentTransactionColumns({ showId }: { showId: boolean }) {
  return useMemo((): DataGridColumn<PaymentTransaction>[] => {
    const columns: DataGridColumn<PaymentTransaction>[] = [
      {
        accessor: 'type',
        title: 'Type',
        sortable: true,
        filter: { type: 'select', options: paymentTransactionTypes },
      },
      {
        accessor: 'ledgerlineReference',
        title: 'Reference',
        sortable: true,
        filter: { type: 'text' },
        noWrap: true,
      },
      {
        accessor: 'statusDateTime',
        title: 'Status date',
        sortable: true,
        filter: { type: 'date' },
        // The time may go under the date: room for the statuses at 1440 px.
        render: (payment) => <DateTime value={payment.statusDateTime} />,
      },
      { accessor: 'companyName', title: 'Company name', sortable: true, filter: { type: 'text' } },
      {
        accessor: 'customerName',
        title: 'Customer name',
        sortable: true,
        filter: { type: 'text' },
      },
      {
        accessor: 'totalAmount',
        title: 'Total amount',
        sortable: true,
        filter: { type: 'number' },
        textAlign: 'right',
        noWrap: true,
        render: (payment) => <Money amount={payment.totalAmount} currency={payment.currency} />,
      },
      {
        accessor: 'status',
        title: 'Status',
        sortable: true,
        filter: { type: 'select', options: enumOptions(paymentTransactionStatuses) },
        render: (payment) => <StatusBadge status={payment.status} tones={paymentStatusTone} />,
      },
      {
        accessor: 'allocatedStatus',
        title: 'Allocated status',
        sortable: true,
        filter: { type: 'select', options: enumOptions(allocatedStatuses) },
        render: (payment) => (
          <StatusBadge status={payment.allocatedStatus} tones={allocatedStatusTone} />
        ),
      },
      {
        accessor: 'view',
        title: '',
        textAlign: 'right',
        render: (payment) => (
          <Anchor
            component={Link}
            to={`/payment-transactions/${payment.id}`}
            aria-label={`View payment ${payment.ledgerlineReference}`}
          >
            View
          </Anchor>
        ),
      },
    ];
    return showId ? [{ accessor: 'id', title: 'Id', noWrap: true }, ...columns] : columns;
  }, [showId]);
}
