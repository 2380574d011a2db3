import type { TransactionDetail } from '@ledgerline/contract';
import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

/** spec 2 §3 Payment allocations of the transaction. */
export function PaymentAllocationsTab({ transaction }: { transaction: TransactionDetail }) {
  if (transaction.paymentAllocations.length === 0) return <EmptyState message="No payment allocations" />;
  return (
    <WideTable>
    <Table striped aria-label="Payment allocations">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Created on</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Allocated amount</Table.Th>
          <Table.Th>Discounted amount</Table.Th>
          <Table.Th>Payment</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {transaction.paymentAllocations.map((allocation) => (
          <Table.Tr key={allocation.id}>
            <Table.Td>
              <DateTime value={allocation.createdOn} />
            </Table.Td>
            <Table.Td>{spaceWords(allocation.type)}</Table.Td>
            <Table.Td>{spaceWords(allocation.status)}</Table.Td>
            <Table.Td>
              <Money amount={allocation.allocatedAmount} currency={transaction.currency} />
            </Table.Td>
            <Table.Td>
              <Money amount={allocation.discountedAmount} currency={transaction.currency} />
            </Table.Td>
            <Table.Td>
              <Anchor
                component={Link}
                to={`/payment-transactions/${allocation.paymentTransactionId}`}
              >
                View
              </Anchor>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
    </WideTable>
  );
}

/** The late-payment tab's lines: one per fee detail (its count on the tab). */
export const latePaymentLines = (transaction: TransactionDetail) =>
  transaction.paymentFeeTransactions.reduce((sum, fee) => sum + fee.feeDetails.length, 0);

/** spec 2 §3 Late-payment fee records charged with payments of the transaction. */
export function LatePaymentsTab({ transaction }: { transaction: TransactionDetail }) {
  const lines = transaction.paymentFeeTransactions.flatMap((fee) =>
    fee.feeDetails.map((detail, index) => ({ fee, detail, key: `${fee.id}-${index}` })),
  );
  if (lines.length === 0) return <EmptyState message="No late payments" />;
  return (
    <WideTable>
    <Table striped aria-label="Late payments">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Created on</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Amount</Table.Th>
          <Table.Th>Payment</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map(({ fee, detail, key }) => (
          <Table.Tr key={key}>
            <Table.Td>
              <DateTime value={fee.createdOn} />
            </Table.Td>
            <Table.Td>{detail.type ? spaceWords(detail.type) : '-'}</Table.Td>
            <Table.Td>
              <Money amount={detail.amount} currency={detail.currency ?? transaction.currency} />
            </Table.Td>
            <Table.Td>
              <Anchor component={Link} to={`/payment-transactions/${fee.paymentTransactionId}`}>
                View
              </Anchor>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
    </WideTable>
  );
}
