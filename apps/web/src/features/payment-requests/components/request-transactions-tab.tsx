import type { PaymentRequest, TransactionAllocation } from '@ledgerline/contract';
import { Button, Table } from '@mantine/core';
import { useState } from 'react';
import { DateTime } from '@/ui/date-time';
import { useDateFormat } from '@/ui/use-date-format';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';
import { useRequestTransactionQuotes } from '../api/get-request-transaction-quotes';
import { EditAllocationDialog } from './edit-allocation-dialog';
import { EmptyState } from '@/ui/empty-state';

/** spec 2 §2 Transactions tab: the accounting transactions the request pays, each with its allocation info. */
export function RequestTransactionsTab({ request, editable, now }: { request: PaymentRequest; editable: boolean; now: Date }) {
  const [editing, setEditing] = useState<TransactionAllocation | null>(null);
  const today = useDateFormat().dayOf(now);
  const transactions = request.transactions ?? [];
  const quotes = useRequestTransactionQuotes(transactions.map((transaction) => transaction.id));
  if (transactions.length === 0) return <EmptyState message="This payment request has no transactions." />;
  const allocationOf = (id: string) => request.transactionAllocations?.find((allocation) => allocation.transactionId === id) ?? null;
  return (
    <>
      <Table.ScrollContainer minWidth={800}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Type</Table.Th>
              <Table.Th>Reference</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Due date</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th ta="right">Discounted amount</Table.Th>
              <Table.Th ta="right">Allocated amount</Table.Th>
              <Table.Th ta="right">To pay today</Table.Th>
              <Table.Th>Paid status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {transactions.map((transaction) => {
              const overdue = transaction.dueDate !== null && transaction.paidStatus !== 'FullyPaid' && transaction.dueDate < today;
              const allocation = allocationOf(transaction.id);
              return (
                <Table.Tr key={transaction.id}>
                  <Table.Td>{spaceWords(transaction.transactionType)}</Table.Td>
                  <Table.Td>{transaction.transactionReference}</Table.Td>
                  <Table.Td>
                    <DateTime value={transaction.transactionDate} dateOnly />
                  </Table.Td>
                  <Table.Td c={overdue ? 'red' : undefined} data-overdue={overdue || undefined}>
                    {transaction.dueDate ? <DateTime value={transaction.dueDate} dateOnly /> : 'N/A'}
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money amount={transaction.transactionAmount} currency={transaction.currency} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money amount={transaction.discountedAmount} currency={transaction.currency} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money amount={transaction.allocatedAmount} currency={transaction.currency} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money amount={quotes.get(transaction.id)?.amountToPay ?? null} currency={transaction.currency} />
                  </Table.Td>
                  <Table.Td>{spaceWords(transaction.paidStatus)}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="compact-xs"
                      variant="light"
                      disabled={!editable || allocation === null}
                      onClick={() => setEditing(allocation)}
                      aria-label={`Edit allocation info of ${transaction.transactionReference}`}
                    >
                      Edit
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <EditAllocationDialog request={request} allocation={editing} onClose={() => setEditing(null)} />
    </>
  );
}
