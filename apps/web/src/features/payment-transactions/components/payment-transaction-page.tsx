import {
  Anchor,
  Breadcrumbs,
  Card,
  Grid,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import type { CustomerDetails, PaymentTransaction } from '@ledgerline/contract';
import { Link, useParams } from 'react-router';
import { DateTime } from '@/ui/date-time';
import { DetailLoadError, isRecordId } from '@/ui/detail-load-error';
import { CountTab } from '@/ui/count-tab';
import { formatMoney } from '@/ui/money-format';
import { Money } from '@/ui/money';
import { StatusTag } from '@/ui/status-tag';
import { paymentStatusTone } from '@/ui/status-tones';
import { spaceWords } from '@/ui/words';
import { usePaymentTransaction } from '../api/get-payment-transaction';
import { AllocatedStatusSelect } from './allocated-status-select';
import { Field, text } from './detail-field';
import { PayerQuotePanel } from './payer-quote-panel';
import { PaymentProviderCard } from './payment-provider-card';
import { PendingActions } from './pending-actions';
import { RefundAction } from './refund-action';
import { DisputesTable, RefundsTable } from './refunds-and-disputes';
import { scrollingTabs } from '@/ui/scrolling-tabs';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

function PayeeCard({ details }: { details: CustomerDetails | null }) {
  const name = [details?.firstNames, details?.surname].filter(Boolean).join(' ');
  const address = [
    details?.address1,
    details?.address2,
    details?.address3,
    details?.address4,
    details?.city,
    details?.state,
    details?.postCode,
    details?.country,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <Card withBorder padding="lg" h="100%">
      <Title order={3} size="h5" mb="md">
        Payee
      </Title>
      <Stack gap="sm">
        <Field label="Company name">{text(details?.companyName)}</Field>
        <Field label="Name">{text(name)}</Field>
        <Field label="Email">{text(details?.emailAddress)}</Field>
        <Field label="Address">{text(address)}</Field>
      </Stack>
    </Card>
  );
}

/** A request named as a merchant knows it: its customer reference, else its amount. */
function requestLabel(payment: PaymentTransaction): string {
  const request = payment.paymentRequest;
  if (!request) return 'The payment request';
  return request.customerReference ?? formatMoney(request.amountToPay, request.currency);
}

function AllocationsTable({ payment }: { payment: PaymentTransaction }) {
  const allocations = payment.paymentAllocations ?? [];
  if (allocations.length === 0)
    return <EmptyState message="This payment has not been allocated." />;
  return (
    <WideTable>
      <Table striped aria-label="Payment allocations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Created on</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Applied to</Table.Th>
            <Table.Th ta="right">Discounted amount</Table.Th>
            <Table.Th ta="right">Allocated amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {allocations.map((allocation) => (
            <Table.Tr key={allocation.id}>
              <Table.Td>
                <DateTime value={allocation.createdOn} />
              </Table.Td>
              <Table.Td>{spaceWords(allocation.type)}</Table.Td>
              <Table.Td>{spaceWords(allocation.status)}</Table.Td>
              <Table.Td>
                {allocation.entityType === 'Transaction' && allocation.transactionId ? (
                  // The invoice by its reference, not a bare 'Transaction'.
                  <Anchor component={Link} to={`/transactions/${allocation.transactionId}`}>
                    {allocation.transactionReference ?? 'Transaction'}
                  </Anchor>
                ) : allocation.accountId ? (
                  <Anchor component={Link} to={`/accounts/${allocation.accountId}`}>
                    {payment.account?.id === allocation.accountId
                      ? `Account ${payment.account.accountReference}`
                      : 'Account'}
                  </Anchor>
                ) : (
                  spaceWords(allocation.entityType)
                )}
              </Table.Td>
              <Table.Td ta="right">
                <Money amount={allocation.discountedAmount} currency={payment.currency} />
              </Table.Td>
              <Table.Td ta="right">
                <Money amount={allocation.allocatedAmount} currency={payment.currency} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </WideTable>
  );
}

function FeeLinesTable({ payment }: { payment: PaymentTransaction }) {
  const lines = (payment.paymentFeeTransactions ?? []).flatMap((fee) =>
    fee.feeDetails.map((detail, index) => ({ key: `${fee.id}-${index}`, fee, detail })),
  );
  if (lines.length === 0)
    return <EmptyState message="No late-payment fees were charged with this payment." />;
  return (
    <WideTable>
      <Table striped aria-label="Late payment fees">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Created on</Table.Th>
            <Table.Th>Fee</Table.Th>
            <Table.Th>Transaction</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map(({ key, fee, detail }) => (
            <Table.Tr key={key}>
              <Table.Td>
                <DateTime value={fee.createdOn} />
              </Table.Td>
              <Table.Td>{detail.type ? spaceWords(detail.type) : '-'}</Table.Td>
              <Table.Td>
                {fee.transactionId ? (
                  <Anchor component={Link} to={`/transactions/${fee.transactionId}`}>
                    Transaction
                  </Anchor>
                ) : (
                  '-'
                )}
              </Table.Td>
              <Table.Td ta="right">
                <Money
                  amount={detail.amount ?? null}
                  currency={detail.currency ?? payment.currency}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </WideTable>
  );
}

/** spec 2 §2 Payment transaction detail: the details, payee and payment provider of one payment. */
export function PaymentTransactionPage() {
  const { id = '' } = useParams();
  const { data: payment, isPending, isError, error } = usePaymentTransaction(id);

  if (!isRecordId(id) || isError) {
    return (
      <DetailLoadError
        record="payment transaction"
        error={isError ? error : null}
        backTo="/payment-transactions"
        backLabel="Back to Payment Transactions"
      />
    );
  }
  if (isPending) {
    return (
      <Stack aria-label="Loading the payment transaction">
        <Skeleton height={32} width={240} />
        <Skeleton height={220} />
      </Stack>
    );
  }

  const amountLabel = payment.type === 'Payment' ? 'Amount paid' : 'Amount refunded';
  const allocations = payment.paymentAllocations ?? [];
  const feeLines = (payment.paymentFeeTransactions ?? []).reduce(
    (n, fee) => n + fee.feeDetails.length,
    0,
  );
  const refunds = payment.refunds ?? [];
  const disputes = payment.disputes ?? [];
  const isPayment = payment.type === 'Payment';
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to="/payment-transactions">
          Payment Transactions
        </Anchor>
        <Text span>{payment.ledgerlineReference}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start">
        <Group gap="sm" align="baseline">
          <Title order={1} size="h2">
            {formatMoney(payment.totalAmount, payment.currency)}
          </Title>
          <StatusTag label={spaceWords(payment.status)} tone={paymentStatusTone[payment.status]} />
        </Group>
        <Group gap="sm">
          <PendingActions payment={payment} />
          <RefundAction payment={payment} />
        </Group>
      </Group>
      <Tabs defaultValue="info" keepMounted={false} classNames={scrollingTabs}>
        <Tabs.List>
          <Tabs.Tab value="info">Info</Tabs.Tab>
          <CountTab value="allocations" label="Payment allocations" count={allocations.length} />
          <CountTab value="late-payments" label="Late payments" count={feeLines} />
          {isPayment && <CountTab value="refunds" label="Refunds" count={refunds.length} />}
          {isPayment && (
            <CountTab
              value="disputes"
              label="Disputes"
              count={disputes.length}
              attention={disputes.some((d) => d.stage === 'Opened' || d.stage === 'UnderReview')}
            />
          )}
          {payment.payerQuote && (
            <CountTab
              value="payer-quote"
              label="Offered to the payer"
              count={payment.payerQuote.invoices.length}
            />
          )}
        </Tabs.List>
        <Tabs.Panel value="info" pt="md">
          <Grid gutter="lg">
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <Card withBorder padding="lg" h="100%">
                <Title order={3} size="h5" mb="md">
                  Details
                </Title>
                <AllocatedStatusSelect
                  paymentTransactionId={payment.id}
                  value={payment.allocatedStatus}
                />
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" mt="md">
                  <Field label={amountLabel}>
                    {/* spec 2's label stays; a Pending payment says so beside its amount. */}
                    <Group gap="xs">
                      <Money amount={payment.totalAmount} currency={payment.currency} />
                      {payment.status === 'Pending' && (
                        <StatusTag
                          label="Pending: not captured yet"
                          tone={paymentStatusTone.Pending}
                        />
                      )}
                    </Group>
                  </Field>
                  <Field label="Type">{payment.type}</Field>
                  <Field label="Reference">{payment.ledgerlineReference}</Field>
                  <Field label="Status date">
                    <DateTime value={payment.statusDateTime} />
                  </Field>
                  <Field label="Created on">
                    <DateTime value={payment.createdOn} />
                  </Field>
                  <Field label="Fee">
                    <Money
                      amount={payment.fee}
                      currency={payment.feeCurrency ?? payment.currency}
                    />
                  </Field>
                  <Field label="Customer">
                    {text(payment.paymentRequest?.customerName ?? payment.customerName)}
                  </Field>
                  <Field label="Account">
                    {payment.account ? (
                      <Anchor component={Link} to={`/accounts/${payment.account.id}`}>
                        {`${payment.account.accountReference} – ${payment.account.name}`}
                      </Anchor>
                    ) : (
                      '-'
                    )}
                  </Field>
                  <Field label="Payment request">
                    {payment.paymentRequestId ? (
                      <Anchor component={Link} to={`/payment-requests/${payment.paymentRequestId}`}>
                        {requestLabel(payment)}
                      </Anchor>
                    ) : (
                      '-'
                    )}
                  </Field>
                  <Field label="Settlement status">{payment.settlementStatus ?? '-'}</Field>
                  <Field label="Payment method">
                    {payment.paymentMethodType ? spaceWords(payment.paymentMethodType) : '-'}
                  </Field>
                  {payment.refundOfId && (
                    <Field label="Refund of">
                      <Anchor component={Link} to={`/payment-transactions/${payment.refundOfId}`}>
                        The original payment
                      </Anchor>
                    </Field>
                  )}
                  {payment.refundReason && <Field label="Reason">{payment.refundReason}</Field>}
                  {isPayment && payment.refundableAmount !== undefined && refunds.length > 0 && (
                    <Field label="Left to refund">
                      <Money amount={payment.refundableAmount} currency={payment.currency} />
                    </Field>
                  )}
                </SimpleGrid>
              </Card>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6, lg: 3 }}>
              <PayeeCard details={payment.customerDetails} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6, lg: 3 }}>
              <PaymentProviderCard payment={payment} />
            </Grid.Col>
          </Grid>
        </Tabs.Panel>
        <Tabs.Panel value="allocations" pt="md">
          <AllocationsTable payment={payment} />
        </Tabs.Panel>
        <Tabs.Panel value="late-payments" pt="md">
          <FeeLinesTable payment={payment} />
        </Tabs.Panel>
        {isPayment && (
          <Tabs.Panel value="refunds" pt="md">
            <RefundsTable payment={payment} />
          </Tabs.Panel>
        )}
        {isPayment && (
          <Tabs.Panel value="disputes" pt="md">
            <DisputesTable disputes={disputes} />
          </Tabs.Panel>
        )}
        {payment.payerQuote && (
          <Tabs.Panel value="payer-quote" pt="md">
            <PayerQuotePanel quote={payment.payerQuote} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
