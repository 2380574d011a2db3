import { paidStatuses, transactionTypes, type Transaction } from '@ledgerline/contract';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from './data-grid';
import { DateTime } from './date-time';
import { Money } from './money';
import { spaceWords } from './words';
import { paidStatusTone, StatusBadge } from './status-tones';

const enumOptions = (values: readonly string[]) =>
  values.map((value) => ({ value, label: spaceWords(value) }));

/** Reference, type and date: before the account name. */
const leadingColumns: DataGridColumn<Transaction>[] = [
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
    filter: { type: 'select', options: enumOptions(transactionTypes) },
    render: (transaction) =>
      transaction.transactionTypeName ?? spaceWords(transaction.transactionType),
  },
  {
    accessor: 'transactionDate',
    title: 'Date',
    sortable: true,
    noWrap: true,
    render: (transaction) => <DateTime value={transaction.transactionDate} dateOnly />,
  },
];

const accountNameColumn: DataGridColumn<Transaction> = {
  accessor: 'accountName',
  title: 'Account name',
  filter: { type: 'text' },
  render: (transaction) => transaction.account?.name ?? '',
};

/** Amount, due date, paid status and View: after the account name. */
const trailingColumns: DataGridColumn<Transaction>[] = [
  {
    accessor: 'transactionAmount',
    title: 'Amount',
    sortable: true,
    filter: { type: 'number' },
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
    // spec 2 §2: blank when the transaction has no due date.
    render: (transaction) =>
      transaction.dueDate ? <DateTime value={transaction.dueDate} dateOnly /> : '',
  },
  {
    accessor: 'paidStatus',
    title: 'Paid status',
    sortable: true,
    filter: { type: 'select', options: enumOptions(paidStatuses) },
    render: (transaction) => <StatusBadge status={transaction.paidStatus} tones={paidStatusTone} />,
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
];

/**
 * spec 2 §2 Accounting transactions list: columns and filters. An account page's Transactions tab
 * shows the same grid without the account name.
 */
export function useTransactionColumns({
  withAccountName = true,
}: { withAccountName?: boolean } = {}) {
  return useMemo(
    (): DataGridColumn<Transaction>[] => [
      ...leadingColumns,
      ...(withAccountName ? [accountNameColumn] : []),
      ...trailingColumns,
    ],
    [withAccountName],
  );
}
