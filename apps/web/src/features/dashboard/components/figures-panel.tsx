import {
  Anchor,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '@/ui/money-format';
import { useDashboardFigures } from '../api/get-figures';
import { MoneyChart } from './money-chart';
import { EmptyState } from '@/ui/empty-state';

const periods = [
  { value: '3', label: '3 months' },
  { value: '6', label: '6 months' },
  { value: '12', label: '12 months' },
];

/** One figure: its label, its value, and the list it summarises behind a link. */
function Figure({
  label,
  value,
  to,
  hint,
}: {
  label: string;
  value: ReactNode;
  to: string;
  hint: string;
}) {
  return (
    <Anchor component={Link} to={to} underline="never" c="inherit">
      <Card withBorder padding="md" h="100%">
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text size="xl" fw={700}>
          {value}
        </Text>
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </Card>
    </Anchor>
  );
}

/**
 * What the accounts owe, what of it is overdue, days sales outstanding
 * and, for the chosen period, the money collected against the invoices falling due and the
 * payment attempts that failed.
 */
export function FiguresPanel() {
  const [months, setMonths] = useState('12');
  const figures = useDashboardFigures(Number(months));
  const data = figures.data;
  const money = (amount: number) => formatMoney(amount, data?.currency);
  const collected = data?.months.reduce((sum, m) => sum + m.collected, 0) ?? 0;
  const fallingDue = data?.months.reduce((sum, m) => sum + m.fallingDue, 0) ?? 0;
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={2} size="h4">
          Money
        </Title>
        <SegmentedControl
          aria-label="Period"
          value={months}
          onChange={setMonths}
          data={periods}
          size="xs"
        />
      </Group>
      {figures.isError ? (
        <Text c="red">Loading Error</Text>
      ) : !data ? (
        <Stack gap="sm" aria-label="Loading money figures">
          <Skeleton height={72} />
          <Skeleton height={160} />
        </Stack>
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
            <Figure
              label="Outstanding"
              value={money(data.outstanding)}
              to="/reports"
              hint="Aged receivables"
            />
            <Figure
              label="Overdue"
              value={money(data.overdue)}
              to="/reports?basis=DueDate"
              hint={`${data.overdueInvoices.toLocaleString('en-GB')} invoices past due`}
            />
            <Figure
              label="DSO"
              value={data.dso === null ? 'N/A' : `${data.dso.toLocaleString('en-GB')} days`}
              to="/reports"
              hint="Days sales outstanding (countback)"
            />
            <Figure
              label="Collected"
              value={money(collected)}
              to="/payment-transactions"
              hint={`Last ${months} months`}
            />
            <Figure
              label="Falling due"
              value={money(fallingDue)}
              to="/transactions"
              hint={`Last ${months} months`}
            />
            <Figure
              label="Failed payments"
              value={money(data.failedAmount)}
              to="/payment-transactions"
              hint={`${data.failedPayments.toLocaleString('en-GB')} attempts in the last ${months} months`}
            />
          </SimpleGrid>
          {data.months.every((m) => m.collected === 0 && m.fallingDue === 0) ? (
            <EmptyState message="Nothing collected or falling due in the period." />
          ) : (
            <MoneyChart months={data.months} currency={data.currency} />
          )}
        </Stack>
      )}
    </Card>
  );
}
