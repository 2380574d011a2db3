import type { Transaction, TransactionQuoteSummary } from '@ledgerline/contract';
import { Group, Stack } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DataGrid, type DataGridColumn } from '@/ui/data-grid';
import { Money } from '@/ui/money';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useTransactionColumns } from '@/ui/use-transaction-columns';
import { paidStatusTone, StatusBadge } from '@/ui/status-tones';
import { useTransactionsWithQuotes } from '../api/get-transaction-quotes';
import { OverdueBadge } from './overdue-badge';

type QuotedTransaction = Transaction & { quote?: TransactionQuoteSummary };

/** An invoice past due says so, with its days late, beside its paid status. */
function paidStatusWithOverdue(transaction: QuotedTransaction) {
  return (
    <Group gap={4} wrap="nowrap">
      <StatusBadge status={transaction.paidStatus} tones={paidStatusTone} />
      <OverdueBadge transaction={transaction} />
    </Group>
  );
}

/** spec 2 §2 Accounting transactions list; default sort transaction date descending (§9). */
export function TransactionsPage() {
  const grid = useGridState({
    name: 'transaction',
    defaultSort: { field: 'transactionDate', direction: 'desc' },
    address: true,
  });
  const transactions = useTransactionsWithQuotes(grid.query, { placeholderData: keepPreviousData });
  const baseColumns = useTransactionColumns();
  // What each invoice costs if paid today, its discount (generated or manual) and fees.
  const columns = useMemo(
    (): DataGridColumn<QuotedTransaction>[] => [
      ...(baseColumns as DataGridColumn<QuotedTransaction>[]).map((column) =>
        column.accessor === 'paidStatus' ? { ...column, render: paidStatusWithOverdue } : column,
      ),
      {
        accessor: 'amountToPayToday',
        title: 'To pay today',
        textAlign: 'right',
        noWrap: true,
        render: (transaction) =>
          transaction.quote ? (
            <Money amount={transaction.quote.amountToPay} currency={transaction.currency} />
          ) : (
            ''
          ),
      },
    ],
    [baseColumns],
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Transactions"
        description="Invoices, credit notes and the other accounting transactions your ERP system sends."
      />
      <GridToolbar
        grid={grid}
        listName="transactions"
        placeholder="Reference, account name or amount"
      />
      <DataGrid
        label="Transactions"
        rowHref={(transaction) => `/transactions/${transaction.id}`}
        card={{
          title: 'transactionReference',
          subtitle: 'accountName',
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
