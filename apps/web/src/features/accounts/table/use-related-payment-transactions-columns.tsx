import { paymentTransactionStatuses, type PaymentTransaction } from '@ledgerline/contract';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';
import { allocatedStatusTone, paymentStatusTone, StatusBadge } from '@/ui/status-tones';

/** The payment transactions of an account or payer: the main list's columns that say most. */
export function useRelatedPaymentTransactionsColumns() {
  return useMemo(
    (): DataGridColumn<PaymentTransaction>[] => [
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
        noWrap: true,
        render: (payment) => <DateTime value={payment.statusDateTime} />,
      },
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
        textAlign: 'right',
        noWrap: true,
        render: (payment) => <Money amount={payment.totalAmount} currency={payment.currency} />,
      },
      {
        accessor: 'status',
        title: 'Status',
        sortable: true,
        filter: {
          type: 'select',
          options: paymentTransactionStatuses.map((value) => ({ value, label: spaceWords(value) })),
        },
        render: (payment) => <StatusBadge status={payment.status} tones={paymentStatusTone} />,
      },
      {
        accessor: 'allocatedStatus',
        title: 'Allocated status',
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
    ],
    [],
  );
}
