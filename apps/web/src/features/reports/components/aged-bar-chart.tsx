import { agingBuckets, type AgedReceivablesTotals, type AgingBucket } from '@ledgerline/contract';
import { Group, Stack, Text } from '@mantine/core';
import { formatMoney } from '@/ui/money-format';
import { bucketTitles } from '../table/use-aged-receivables-columns';

/** From current (calm) to over 90 days (alarm); each at least 3:1 against white (WCAG 1.4.11). */
export const bucketColours: Record<AgingBucket, string> = {
  current: 'var(--mantine-color-teal-7)',
  days1to30: 'var(--mantine-color-yellow-8)',
  days31to60: 'var(--mantine-color-orange-7)',
  days61to90: 'var(--mantine-color-red-7)',
  over90: 'var(--mantine-color-grape-9)',
};

export interface AgedBar {
  label: string;
  amounts: AgedReceivablesTotals;
}

const rowHeight = 28;
const labelWidth = 160;
const chartWidth = 720;

/**
 * A stacked bar per row (the company, then the page's largest accounts), one segment a bucket.
 * Drawn in SVG: @mantine/charts is not installed (docs/decisions/137-aged-receivables.md "Aged receivables"). Credits
 * (a negative bucket) are not drawn; the table shows them.
 */
export function AgedBarChart({ bars, currency }: { bars: readonly AgedBar[]; currency: string }) {
  const positive = (amounts: AgedReceivablesTotals, bucket: AgingBucket) => Math.max(amounts[bucket], 0);
  const widest = Math.max(
    1,
    ...bars.map((bar) => agingBuckets.reduce((sum, bucket) => sum + positive(bar.amounts, bucket), 0)),
  );
  const scale = (chartWidth - labelWidth - 8) / widest;
  const summary = bars
    .map(
      (bar) =>
        `${bar.label}: ${agingBuckets.map((bucket) => `${bucketTitles[bucket]} ${formatMoney(bar.amounts[bucket], currency)}`).join(', ')}`,
    )
    .join('; ');
  return (
    <Stack gap="xs">
      <svg
        role="img"
        aria-label={`Aged receivables by bucket. ${summary}`}
        viewBox={`0 0 ${chartWidth} ${bars.length * rowHeight}`}
        width="100%"
        style={{ maxWidth: chartWidth }}
      >
        {bars.map((bar, row) => {
          let x = labelWidth;
          return (
            <g key={`${bar.label}-${row}`} transform={`translate(0, ${row * rowHeight})`}>
              <text x={0} y={rowHeight / 2 + 4} fontSize={12} fill="var(--mantine-color-text)">
                {bar.label.length > 24 ? `${bar.label.slice(0, 23)}…` : bar.label}
              </text>
              {agingBuckets.map((bucket) => {
                const width = positive(bar.amounts, bucket) * scale;
                const segment = (
                  <rect
                    key={bucket}
                    data-bucket={bucket}
                    x={x}
                    y={4}
                    width={width}
                    height={rowHeight - 8}
                    fill={bucketColours[bucket]}
                  >
                    <title>{`${bar.label}, ${bucketTitles[bucket]}: ${formatMoney(bar.amounts[bucket], currency)}`}</title>
                  </rect>
                );
                x += width;
                return segment;
              })}
            </g>
          );
        })}
      </svg>
      <Group gap="md" aria-hidden>
        {agingBuckets.map((bucket) => (
          <Group key={bucket} gap={6}>
            <span style={{ width: 12, height: 12, borderRadius: 2, background: bucketColours[bucket], display: 'inline-block' }} />
            <Text size="sm">{bucketTitles[bucket]}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}
