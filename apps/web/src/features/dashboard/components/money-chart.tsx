import type { DashboardMonth } from '@ledgerline/contract';
import { Group, Stack, Text } from '@mantine/core';
import { formatMoney } from '@/ui/money-format';

const collectedColour = 'var(--mantine-color-teal-7)';
const dueColour = 'var(--mantine-color-blue-7)';
const height = 160;
const labelHeight = 20;

const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });

/**
 * Per month, the money collected beside the invoices falling due: two bars a month, in SVG
 * (@mantine/charts is not installed; docs/decisions/137-aged-receivables.md "Aged receivables").
 */
export function MoneyChart({ months, currency }: { months: readonly DashboardMonth[]; currency: string }) {
  const highest = Math.max(1, ...months.flatMap((m) => [m.collected, m.fallingDue]));
  const slot = 48;
  const bar = 16;
  const width = months.length * slot;
  const barHeight = (amount: number) => (Math.max(amount, 0) / highest) * (height - labelHeight - 4);
  const summary = months
    .map((m) => `${m.month}: collected ${formatMoney(m.collected, currency)}, falling due ${formatMoney(m.fallingDue, currency)}`)
    .join('; ');
  return (
    <Stack gap="xs">
      <div style={{ overflowX: 'auto' }} tabIndex={0} aria-label="Collected against falling due, by month">
        <svg role="img" aria-label={`Collected against falling due. ${summary}`} viewBox={`0 0 ${width} ${height}`} width={width} height={height}>
          {months.map((m, i) => {
            const x = i * slot + (slot - 2 * bar - 2) / 2;
            const base = height - labelHeight;
            return (
              <g key={m.month}>
                <rect data-series="collected" x={x} y={base - barHeight(m.collected)} width={bar} height={barHeight(m.collected)} fill={collectedColour}>
                  <title>{`${m.month} collected: ${formatMoney(m.collected, currency)}`}</title>
                </rect>
                <rect data-series="falling-due" x={x + bar + 2} y={base - barHeight(m.fallingDue)} width={bar} height={barHeight(m.fallingDue)} fill={dueColour}>
                  <title>{`${m.month} falling due: ${formatMoney(m.fallingDue, currency)}`}</title>
                </rect>
                <text x={i * slot + slot / 2} y={height - 5} fontSize={11} textAnchor="middle" fill="var(--mantine-color-text)">
                  {monthLabel(m.month)}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <Group gap="md" aria-hidden>
        {[
          ['Collected', collectedColour],
          ['Falling due', dueColour],
        ].map(([label, colour]) => (
          <Group key={label} gap={6}>
            <span style={{ width: 12, height: 12, borderRadius: 2, background: colour, display: 'inline-block' }} />
            <Text size="sm">{label}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}
