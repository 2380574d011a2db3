import type { PaymentRequest } from '@ledgerline/contract';
import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { StatusTag } from '@/ui/status-tag';
import { paymentStatusTone } from '@/ui/status-tones';
import { spaceWords } from '@/ui/words';
import { EmptyState } from '@/ui/empty-state';

/** spec 2 §2 Payment transactions tab: the payment attempts, newest first (the server's order). */
export function RequestPaymentsTab({ request }: { request: PaymentRequest }) {
  const payments = request.paymentTransactions ?? [];
  if (payments.length === 0)
    return <EmptyState message="There have been no payment attempts for this payment request." />;
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Created on</Table.Th>
            <Table.Th>Payment transaction</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Total amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((payment) => (
            <Table.Tr key={payment.id}>
              <Table.Td>
                <DateTime value={payment.createdOn} />
              </Table.Td>
              <Table.Td>
                {/* The payment's reference, which a merchant reads, links to it (not its UUID). */}
                <Anchor component={Link} to={`/payment-transactions/${payment.id}`}>
                  {payment.ledgerlineReference}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StatusTag
                  label={spaceWords(payment.status)}
                  tone={
                    paymentStatusTone[payment.status as keyof typeof paymentStatusTone] ?? 'neutral'
                  }
                />
              </Table.Td>
              <Table.Td ta="right">
                <Money amount={payment.totalAmount} currency={payment.currency} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
