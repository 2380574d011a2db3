import {
  agingBases,
  isCalendarDate,
  reportMessages,
  type AgedReceivables,
  type AgingBasis,
} from '@ledgerline/contract';
import {
  Alert,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '@/lib/http';
import { CalendarDateInput } from '@/ui/calendar-date-input';
import { DataGrid } from '@/ui/data-grid';
import { saveBlob } from '@/ui/download';
import { showErrorToast } from '@/ui/error-toast';
import { PageHeader } from '@/ui/page-header';
import { useDateFormat } from '@/ui/use-date-format';
import { useGridState } from '@/ui/use-grid-state';
import {
  downloadAgedReceivablesCsv,
  useAgedReceivables,
  type AgedReceivablesChoice,
} from '../api/get-aged-receivables';
import { useAgedReceivablesColumns } from '../table/use-aged-receivables-columns';
import { AgedBarChart, type AgedBar } from './aged-bar-chart';

const basisLabels: Record<AgingBasis, string> = {
  DueDate: 'By due date',
  TransactionDate: 'By transaction date',
};

/** How many of the page's accounts the chart draws beside the company's bar. */
const chartedAccounts = 8;

/**
 * The day, basis and currency live in the address (`/reports?asOf=…&basis=…&currency=…`), so a
 * view can be shared and the dashboard's figures can link to it.
 */
function useReportChoice() {
  const [params, setParams] = useSearchParams();
  const { dayOf } = useDateFormat();
  const asOf = params.get('asOf') ?? dayOf(new Date());
  const basisParam = params.get('basis');
  const basis: AgingBasis = agingBases.includes(basisParam as AgingBasis)
    ? (basisParam as AgingBasis)
    : 'DueDate';
  const currency = params.get('currency') ?? undefined;
  const set = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  return { choice: { asOf, basis, currency } satisfies AgedReceivablesChoice, set };
}

function barsOf(report: AgedReceivables): AgedBar[] {
  return [
    { label: 'All accounts', amounts: report.totals },
    ...[...report.items]
      .sort((a, b) => b.total - a.total)
      .slice(0, chartedAccounts)
      .map((row) => ({ label: row.name, amounts: row })),
  ];
}

/** The aged receivables, as of a day, by due or transaction date, in one currency. */
export function ReportsPage() {
  const { choice, set } = useReportChoice();
  const grid = useGridState({
    name: 'aged-receivables',
    defaultSort: { field: 'total', direction: 'desc' },
  });
  const validDay = isCalendarDate(choice.asOf);
  const report = useAgedReceivables(choice, grid.query, validDay);
  const data = report.data;
  const currency = data?.currency ?? choice.currency ?? '';
  // The totals row only under rows: an empty report shows its empty state alone.
  const columns = useAgedReceivablesColumns(
    currency,
    data && data.totalItems > 0 ? data.totals : undefined,
  );
  const [downloading, setDownloading] = useState(false);

  // A refusal of the server names its field: shown under that field, as the forms do.
  const fieldErrors = report.error instanceof ApiError ? report.error.fieldErrors : {};
  const asOfError = !validDay ? reportMessages.asOf : fieldErrors.asOf?.[0];

  const download = async () => {
    setDownloading(true);
    try {
      const blob = await downloadAgedReceivablesCsv({ ...choice, currency: data?.currency });
      saveBlob(blob, `AgedReceivables-${data?.currency ?? 'company'}-${choice.asOf}.csv`);
    } catch (error) {
      showErrorToast(error instanceof Error ? error.message : 'The download failed.');
    } finally {
      setDownloading(false);
    }
  };

  const currencies = data?.currencies ?? [];
  const currencyChoices = [...new Set([...currencies, ...(data ? [data.currency] : [])])].sort();

  return (
    <Stack gap="lg">
      <PageHeader
        title="Reports"
        description="Aged receivables: what each account owes on a day, by how long it has been due."
        actions={
          <Button
            leftSection={<IconDownload size={16} />}
            variant="default"
            onClick={() => void download()}
            loading={downloading}
            disabled={!validDay || !data}
          >
            Download CSV
          </Button>
        }
      />
      <Group align="flex-end" gap="md" wrap="wrap">
        <CalendarDateInput
          label="As of"
          value={choice.asOf}
          onChange={(value) => set('asOf', value)}
          error={asOfError}
          w={180}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="aged-basis-label">
            Basis
          </Text>
          <SegmentedControl
            aria-labelledby="aged-basis-label"
            value={choice.basis}
            onChange={(value) => set('basis', value)}
            data={agingBases.map((basis) => ({ value: basis, label: basisLabels[basis] }))}
          />
        </Stack>
        {currencyChoices.length > 1 && (
          <Select
            label="Currency"
            value={currency}
            data={currencyChoices}
            onChange={(value) => set('currency', value)}
            allowDeselect={false}
            w={120}
          />
        )}
      </Group>
      {report.isError && !asOfError ? (
        <Alert color="red" title="The report could not be loaded">
          {report.error.message}
        </Alert>
      ) : null}
      {data && data.totalItems > 0 ? (
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="md">
            Aged receivables in {data.currency}
          </Title>
          <AgedBarChart bars={barsOf(data)} currency={data.currency} />
        </Card>
      ) : null}
      <DataGrid
        label="Aged receivables"
        grid={grid}
        columns={columns}
        idAccessor="accountId"
        records={validDay ? data?.items : []}
        totalRecords={validDay ? (data?.totalItems ?? 0) : 0}
        fetching={validDay && (report.isPending || report.isPlaceholderData)}
        noRecordsText={
          validDay
            ? `No account owes anything in ${currency || 'this currency'} on this day`
            : 'Choose a day to see the report'
        }
      />
    </Stack>
  );
}
