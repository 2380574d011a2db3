import type { AgedReceivablesRow, AgedReceivablesTotals } from '@ledgerline/contract';
import { Anchor, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { formatMoney } from '@/ui/money-format';

/** The buckets' titles, in their order (contract agingBuckets, then the total). */
export const bucketTitles = {
  current: 'Current',
  days1to30: '1–30 days',
  days31to60: '31–60 days',
  days61to90: '61–90 days',
  over90: 'Over 90 days',
} as const;

const amountColumns = [
  ...(Object.keys(bucketTitles) as (keyof typeof bucketTitles)[]),
  'total',
] as const;

/** Account, name, the five buckets and the total, each money column with its total below. */
export function useAgedReceivablesColumns(
  currency: string,
  totals: AgedReceivablesTotals | undefined,
) {
  return useMemo((): DataGridColumn<AgedReceivablesRow>[] => {
    const money = (amount: number) => formatMoney(amount, currency);
    return [
      {
        accessor: 'accountReference',
        title: 'Account reference',
        sortable: true,
        noWrap: true,
        render: (row) => (
          <Anchor component={Link} to={`/accounts/${row.accountId}`}>
            {row.accountReference}
          </Anchor>
        ),
        footer: totals ? <Text fw={700}>Total</Text> : undefined,
      },
      { accessor: 'name', title: 'Name', sortable: true },
      ...amountColumns.map((bucket): DataGridColumn<AgedReceivablesRow> => ({
        accessor: bucket,
        title: bucket === 'total' ? 'Total' : bucketTitles[bucket],
        sortable: true,
        textAlign: 'right',
        noWrap: true,
        render: (row) =>
          bucket === 'total' ? (
            <Text fw={600} span>
              {money(row[bucket])}
            </Text>
          ) : (
            money(row[bucket])
          ),
        footer: totals ? (
          <Text fw={700} ta="right" span display="block">
            {money(totals[bucket])}
          </Text>
        ) : undefined,
      })),
    ];
  }, [currency, totals]);
}
