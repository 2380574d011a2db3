import {
  Anchor,
  Breadcrumbs,
  Group,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { Link, useParams } from 'react-router';
import { DetailLoadError, isRecordId } from '@/ui/detail-load-error';
import { formatMoney } from '@/ui/money-format';
import { useTransaction } from '../api/get-transaction';
import { DocumentsTab } from './documents-tab';
import { IfPaidToday } from './if-paid-today';
import { OverdueBadge } from './overdue-badge';
import { PaidStatusTag } from './paid-status-tag';
import { latePaymentLines, LatePaymentsTab, PaymentAllocationsTab } from './payments-tabs';
import { CountTab } from '@/ui/count-tab';
import { SettlementOffersTab } from './settlement-offers-tab';
import { TransactionInfoTab } from './transaction-info-tab';
import { scrollingTabs } from '@/ui/scrolling-tabs';

/** spec 2 §2 Accounting transaction detail: titled with its amount, five tabs. */
export function TransactionPage() {
  const { id = '' } = useParams();
  const { data: transaction, isPending, isError, error } = useTransaction(id);

  if (!isRecordId(id) || isError) {
    return (
      <DetailLoadError
        record="transaction"
        error={isError ? error : null}
        backTo="/transactions"
        backLabel="Back to Transactions"
      />
    );
  }
  if (isPending) {
    return (
      <Stack aria-label="Loading the transaction">
        <Skeleton height={32} width={240} />
        <Skeleton height={220} />
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to="/transactions">
          Transactions
        </Anchor>
        <Text span>{transaction.transactionReference}</Text>
      </Breadcrumbs>
      <Group gap="sm" align="baseline">
        <Title order={1} size="h2">{formatMoney(transaction.transactionAmount, transaction.currency)}</Title>
        <PaidStatusTag status={transaction.paidStatus} />
        <OverdueBadge transaction={transaction} />
        <Text c="dimmed">{transaction.transactionReference}</Text>
      </Group>
      <IfPaidToday transactionId={transaction.id} />
      <Tabs defaultValue="info" keepMounted={false} classNames={scrollingTabs}>
        <Tabs.List>
          <Tabs.Tab value="info">Info</Tabs.Tab>
          <CountTab value="settlement-offers" label="Settlement offers" count={transaction.settlementOffers.length} />
          <CountTab value="payment-allocations" label="Payment allocations" count={transaction.paymentAllocations.length} />
          <CountTab value="late-payments" label="Late payments" count={latePaymentLines(transaction)} />
          <CountTab value="documents" label="Documents" count={transaction.documents.length} />
        </Tabs.List>
        <Tabs.Panel value="info" pt="lg">
          <TransactionInfoTab transaction={transaction} />
        </Tabs.Panel>
        <Tabs.Panel value="settlement-offers" pt="lg">
          <SettlementOffersTab transaction={transaction} />
        </Tabs.Panel>
        <Tabs.Panel value="payment-allocations" pt="lg">
          <PaymentAllocationsTab transaction={transaction} />
        </Tabs.Panel>
        <Tabs.Panel value="late-payments" pt="lg">
          <LatePaymentsTab transaction={transaction} />
        </Tabs.Panel>
        <Tabs.Panel value="documents" pt="lg">
          <DocumentsTab transaction={transaction} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
