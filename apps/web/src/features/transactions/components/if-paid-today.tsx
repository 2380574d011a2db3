import { Card, Group, Stack, Text } from '@mantine/core';
import { Money } from '@/ui/money';
import { useTransactionQuote } from '../api/get-transaction-quote';

const notAppliedReason = {
  LatePaymentsNotEnabled: 'Late payments are not enabled on your site: no fees are charged.',
  CurrencyNotGbp: 'UK statutory fees apply to invoices in pounds only.',
  NoReferenceRate: 'No Bank Rate is recorded for the reference date: interest is not charged.',
} as const;

/** The "if paid today" line — the best discount, the late-payment fees, the amount to pay. */
export function IfPaidToday({ transactionId }: { transactionId: string }) {
  const quote = useTransactionQuote(transactionId);
  if (quote.isPending) return null;
  if (quote.isError)
    return (
      <Text c="red" size="sm">
        The amount to pay today could not be worked out.
      </Text>
    );
  const { currency, discount, fees, amountToPay, latePayment, bestOffer } = quote.data;
  return (
    <Card withBorder aria-label="If paid today">
      <Stack gap={4}>
        <Group gap="lg" wrap="wrap">
          <Text fw={600}>If paid today</Text>
          <Text>
            Discount: <Money amount={discount} currency={currency} />
            {bestOffer && ` (${bestOffer.source === 'Generated' ? 'generated' : 'manual'} offer)`}
          </Text>
          {fees.map((fee) => (
            <Text key={fee.type}>
              {fee.type === 'FixedSum' ? 'Fixed sum' : 'Interest'}:{' '}
              <Money amount={fee.amount} currency={currency} />
            </Text>
          ))}
          <Text fw={600}>
            Amount to pay: <Money amount={amountToPay} currency={currency} />
          </Text>
        </Group>
        {latePayment && latePayment.notApplied === null && (
          <Text size="sm" c="dimmed">
            Statutory interest at {latePayment.annualRate?.toFixed(2)}% (8% + reference rate{' '}
            {latePayment.referenceRate?.toFixed(2)}%) from {latePayment.interestStart},{' '}
            {latePayment.daysLate} {latePayment.daysLate === 1 ? 'day' : 'days'}.
          </Text>
        )}
        {latePayment?.notApplied && (
          <Text size="sm" c="dimmed">
            {notAppliedReason[latePayment.notApplied]}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
