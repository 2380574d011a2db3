import { paymentRequestStatuses, type PaymentRequest } from '@ledgerline/contract';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { useDateFormat } from '@/ui/use-date-format';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';
import { requestStatusTone, StatusBadge } from '@/ui/status-tones';

/** The payment requests of one account: the list's columns (spec 2 §2 Payment requests list). */
export function useAccountPaymentRequestsColumns() {
  const { formatDateTime } = useDateFormat();
  return useMemo(
    (): DataGridColumn<PaymentRequest>[] => [
      { accessor: 'requestType', title: 'Request type', sortable: true },
      {
        accessor: 'createdOn',
        title: 'Created on',
        sortable: true,
        noWrap: true,
        render: (request) => <DateTime value={request.createdOn} />,
      },
      {
        accessor: 'customerName',
        title: 'Customer name',
        sortable: true,
        filter: { type: 'text' },
        render: (request) => request.customerName ?? '-',
      },
      {
        accessor: 'amountToPay',
        title: 'Amount to pay',
        sortable: true,
        textAlign: 'right',
        noWrap: true,
        render: (request) => <Money amount={request.amountToPay} currency={request.currency} />,
      },
      { accessor: 'captureType', title: 'Capture type', sortable: true },
      {
        accessor: 'requestStatus',
        title: 'Request status',
        sortable: true,
        filter: {
          type: 'select',
          options: paymentRequestStatuses.map((value) => ({ value, label: spaceWords(value) })),
        },
        render: (request) => (
          <StatusBadge status={request.requestStatus} tones={requestStatusTone} />
        ),
      },
      {
        accessor: 'view',
        title: '',
        textAlign: 'right',
        render: (request) => (
          <Anchor
            component={Link}
            to={`/payment-requests/${request.id}`}
            aria-label={`View payment request created ${formatDateTime(request.createdOn)}`}
          >
            View
          </Anchor>
        ),
      },
    ],
    [formatDateTime],
  );
}
