import { debtBandLabel, formatPounds } from '@ledgerline/contract';
import { Alert, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { LoadingState } from '@/ui/loading-state';
import { useUkInfo } from '../api/get-uk-info';
import { WideTable } from '@/ui/wide-table';

/**
 * spec 3 §2, §3 the statutory panel: today's statutory interest rate (8 % plus the reference
 * rate, both shown) and the debt recovery cost table in pounds with .00 trimmed.
 */
export function StatutoryPanel() {
  const info = useUkInfo();
  if (info.isPending) return <LoadingState label="Loading the statutory rates" />;
  if (info.isError) return <Alert color="red">An error occurred loading the data</Alert>;
  const {
    annualStatutoryInterestRate,
    referenceRate,
    currentBoEBaseRate,
    referenceRateFixedOn,
    charges,
  } = info.data;
  const total = annualStatutoryInterestRate + referenceRate;
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={4}>Statutory interest rate</Title>
        <Group gap="xs" role="group" aria-label="Statutory interest rate">
          <Text fw={700}>{total.toFixed(2)}%</Text>
          <Text c="dimmed">
            = {annualStatutoryInterestRate.toFixed(2)}% + reference rate {referenceRate.toFixed(2)}%
            (Bank Rate on {referenceRateFixedOn}; today {currentBoEBaseRate.toFixed(2)}%)
          </Text>
        </Group>
        <Title order={4}>Debt recovery costs</Title>
        <WideTable>
        <Table aria-label="Debt recovery costs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Debt</Table.Th>
              <Table.Th>Fixed sum</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {charges.map((row) => (
              <Table.Tr key={row.charge}>
                <Table.Td>{debtBandLabel(row)}</Table.Td>
                <Table.Td>{formatPounds(row.charge)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        </WideTable>
      </Stack>
    </Card>
  );
}
