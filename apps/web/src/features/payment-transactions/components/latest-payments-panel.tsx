import { Anchor, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { useLatestFailedPayments, useLatestPayments, type LatestPayment } from '../api/get-latest-payments';
import { EmptyState } from '@/ui/empty-state';

/** spec 1 §2.4, §9: each panel lists 8 items, newest first. */
const panelQuery = { page: 1, itemsPerPage: 8, sort: '-StatusDateTime', expand: 'paymentrequest' } as const;

interface PanelProps {
  title: string;
  empty: string;
  result: UseQueryResult<{ items: LatestPayment[] }>;
}

function customerOf(payment: LatestPayment): string {
  return payment.paymentRequest?.customerName ?? payment.customerName ?? payment.companyName ?? 'Unknown customer';
}

function PaymentsPanel({ title, empty, result }: PanelProps) {
  return (
    <Card withBorder padding="lg" h="100%">
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {result.isPending ? (
        <Stack gap="sm" aria-label={`Loading ${title.toLowerCase()}`}>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      ) : result.isError ? (
        <Text c="red">Loading Error</Text>
      ) : result.data.items.length === 0 ? (
        <EmptyState message={empty} />
      ) : (
        <Stack gap={0} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {result.data.items.map((payment) => (
            <li key={payment.id}>
              <Anchor component={Link} to={`/payment-transactions/${payment.id}`} underline="never" c="inherit" display="block" py="xs">
                <Group justify="space-between" wrap="nowrap">
                  <Stack gap={0}>
                    <Text fw={500}>{customerOf(payment)}</Text>
                    <Text size="sm" c="dimmed">
                      <DateTime value={payment.statusDateTime} />
                    </Text>
                  </Stack>
                  <Text fw={500} style={{ whiteSpace: 'nowrap' }}>
                    <Money amount={payment.totalAmount} currency={payment.currency} />
                  </Text>
                </Group>
              </Anchor>
            </li>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** The latest paid payments of the company (spec 1 §7: filter 'Status eq Paid'). */
export function SuccessfulPaymentsPanel() {
  const result = useLatestPayments({ ...panelQuery, filter: 'Status eq Paid' });
  return <PaymentsPanel title="Successful payments" empty="No successful payments" result={result} />;
}

/** The latest failed, not authorised and rejected payment attempts. */
export function RejectedPaymentsPanel() {
  const result = useLatestFailedPayments(panelQuery);
  return <PaymentsPanel title="Rejected payments" empty="No failed payments" result={result} />;
}
