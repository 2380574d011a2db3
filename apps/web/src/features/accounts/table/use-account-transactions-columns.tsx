import { paidStatuses, type Transaction } from '@ledgerline/contract';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';

/** The accounting transactions of one account: the list's columns without the account name. */
export function useAccountTransactionsColumns() {
  return useMemo(
    (): DataGridColumn<Transaction>[] => [
      {
        accessor: 'transactionReference',
        title: 'Reference',
        sortable: true,
        filter: { type: 'text' },
        noWrap: true,
      },
      {
        accessor: 'transactionType',
        title: 'Type',
        sortable: true,
        render: (transaction) => spaceWords(transaction.transactionType),
      },
      {
        accessor: 'transactionDate',
        title: 'Date',
        sortable: true,
        noWrap: true,
        render: (transaction) => <DateTime value={transaction.transactionDate} dateOnly />,
      },
      {
        accessor: 'transactionAmount',
        title: 'Amount',
        sortable: true,
        textAlign: 'right',
        noWrap: true,
        render: (transaction) => (
          <Money amount={transaction.transactionAmount} currency={transaction.currency} />
        ),
      },
      {
        accessor: 'dueDate',
        title: 'Due date',
        sortable: true,
        noWrap: true,
        render: (transaction) => <DateTime value={transaction.dueDate} dateOnly />,
      },
      {
        accessor: 'paidStatus',
        title: 'Paid status',
        sortable: true,
        filter: {
          type: 'select',
          options: paidStatuses.map((value) => ({ value, label: spaceWords(value) })),
        },
        render: (transaction) => spaceWords(transaction.paidStatus),
      },
      {
        accessor: 'view',
        title: '',
        textAlign: 'right',
        render: (transaction) => (
          <Anchor
            component={Link}
            to={`/transactions/${transaction.id}`}
            aria-label={`View transaction ${transaction.transactionReference}`}
          >
            View
          </Anchor>
        ),
      },
    ],
    [],
  );
}
