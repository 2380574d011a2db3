import type { DisputeStage, PaymentDispute, PaymentTransaction } from '@ledgerline/contract';
import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import type { StatusTone } from '@/ui/status-tag';
import { paymentStatusTone, StatusBadge } from '@/ui/status-tones';
import { spaceWords } from '@/ui/words';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

/** A dispute's stage as a badge: open ones want attention, a loss is money gone. */
export const disputeStageTone: Record<DisputeStage, StatusTone> = {
  Opened: 'warning',
  UnderReview: 'warning',
  Won: 'success',
  Lost: 'danger',
};

/** The Refund transactions of a payment, newest first. */
export function RefundsTable({ payment }: { payment: PaymentTransaction }) {
  const refunds = payment.refunds ?? [];
  if (refunds.length === 0)
    return <EmptyState message="No money of this payment has been refunded." />;
  return (
    <WideTable>
      <Table striped aria-label="Refunds">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Created on</Table.Th>
            <Table.Th>Reference</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th ta="right">Amount refunded</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {refunds.map((refund) => (
            <Table.Tr key={refund.id}>
              <Table.Td>
                <DateTime value={refund.createdOn} />
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/payment-transactions/${refund.id}`}>
                  {refund.ledgerlineReference}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={refund.status} tones={paymentStatusTone} />
              </Table.Td>
              <Table.Td>{refund.refundReason ?? '-'}</Table.Td>
              <Table.Td ta="right">
                <Money amount={refund.totalAmount} currency={refund.currency} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </WideTable>
  );
}

/** A payment's disputes and chargebacks, newest first, as its provider reported them. */
export function DisputesTable({ disputes }: { disputes: readonly PaymentDispute[] }) {
  if (disputes.length === 0)
    return <EmptyState message="No dispute or chargeback has been reported for this payment." />;
  return (
    <WideTable>
      <Table striped aria-label="Disputes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Opened on</Table.Th>
            <Table.Th>Stage</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Respond by</Table.Th>
            <Table.Th>Closed on</Table.Th>
            <Table.Th>Provider reference</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {disputes.map((dispute) => (
            <Table.Tr key={dispute.id}>
              <Table.Td>
                <DateTime value={dispute.openedOn} />
              </Table.Td>
              <Table.Td>
                <StatusBadge status={dispute.stage} tones={disputeStageTone} />
              </Table.Td>
              <Table.Td>
                {dispute.reason ? spaceWords(dispute.reason.replace(/_/g, ' ')) : '-'}
              </Table.Td>
              <Table.Td>
                {dispute.respondBy ? <DateTime value={dispute.respondBy} /> : '-'}
              </Table.Td>
              <Table.Td>{dispute.closedOn ? <DateTime value={dispute.closedOn} /> : '-'}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{dispute.disputeReference}</Table.Td>
              <Table.Td ta="right">
                <Money amount={dispute.amount} currency={dispute.currency} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </WideTable>
  );
}
