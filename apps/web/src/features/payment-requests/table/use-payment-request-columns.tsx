import { captureTypes, paymentRequestStatuses, paymentRequestTypes, type PaymentRequest } from '@ledgerline/contract';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';
import { requestStatusTone, StatusBadge } from '@/ui/status-tones';

const enumOptions = (values: readonly string[]) => values.map((value) => ({ value, label: spaceWords(value) }));

/** spec 2 §2 Payment requests list: request type, created on, customer name, amount to pay, capture type, request status, view. */
export function usePaymentRequestColumns() {
  return useMemo(
    (): DataGridColumn<PaymentRequest>[] => [
      { accessor: 'requestType', title: 'Request type', sortable: true, filter: { type: 'select', options: enumOptions(paymentRequestTypes) } },
      {
        accessor: 'createdOn',
        title: 'Created on',
        sortable: true,
        filter: { type: 'date' },
        noWrap: true,
        render: (request) => <DateTime value={request.createdOn} />,
      },
      { accessor: 'customerName', title: 'Customer name', sortable: true, filter: { type: 'text' } },
      {
        accessor: 'amountToPay',
        title: 'Amount to pay',
        sortable: true,
        filter: { type: 'number' },
        textAlign: 'right',
        noWrap: true,
        render: (request) => <Money amount={request.amountToPay} currency={request.currency} />,
      },
      { accessor: 'captureType', title: 'Capture type', sortable: true, filter: { type: 'select', options: enumOptions(captureTypes) } },
      {
        accessor: 'requestStatus',
        title: 'Request status',
        sortable: true,
        filter: { type: 'select', options: enumOptions(paymentRequestStatuses) },
        render: (request) => <StatusBadge status={request.requestStatus} tones={requestStatusTone} />,
      },
      {
        accessor: 'view',
        title: '',
        textAlign: 'right',
        render: (request) => (
          <Anchor component={Link} to={`/payment-requests/${request.id}`} aria-label={`View payment request of ${request.customerName ?? request.id}`}>
            View
          </Anchor>
        ),
      },
    ],
    [],
  );
}
