import {
  allocatedStatuses,
  exportTypes,
  formatFilter,
  isCalendarDate,
  paymentTransactionMessages,
  paymentTransactionStatuses,
  paymentTransactionTypes,
  type AllocatedStatus,
  type ExportType,
  type FilterItemInput,
  type PaymentTransactionStatus,
  type PaymentTransactionType,
} from '@ledgerline/contract';
import { Button, Checkbox, Group, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useCompanyId } from '@/lib/company';
import { local } from '@/lib/storage';
import { CalendarDateInput } from '@/ui/calendar-date-input';
import { saveBlob } from '@/ui/download';
import { failureMessage } from '@/ui/form-errors';
import { activeFilters, type GridFilter } from '@/ui/grid-state';
import { spaceWords } from '@/ui/words';
import { useExportPaymentTransactions } from '../api/export-payment-transactions';
import { ExportProviderSelect } from './export-provider-select';

/** What the dialog remembers per company (spec 2 §9). */
interface ExportOptions {
  exportType: ExportType;
  /** yyyy-MM-dd, the day as the user picked it. */
  fromDate: string | null;
  toDate: string | null;
  paymentProviderId: string | null;
  /** One payment status or type only; null for all. */
  status: PaymentTransactionStatus | null;
  type: PaymentTransactionType | null;
  allocatedStatuses: AllocatedStatus[];
  includeTableFilters: boolean;
}

/** spec 2 §5, §9: PaymentsAndAllocations with WaitingToBeAllocated and Error ticked. */
const defaults: ExportOptions = {
  exportType: 'PaymentsAndAllocations',
  fromDate: null,
  toDate: null,
  paymentProviderId: null,
  status: null,
  type: null,
  allocatedStatuses: ['WaitingToBeAllocated', 'Error'],
  includeTableFilters: false,
};

const storageKey = (companyId: number) => `ledgerline.payment-transactions.export.${companyId}`;

function loadOptions(companyId: number): ExportOptions {
  try {
    const stored = JSON.parse(
      local.get(storageKey(companyId)) ?? 'null',
    ) as Partial<ExportOptions> | null;
    return { ...defaults, ...stored };
  } catch {
    return defaults;
  }
}

/** A picked day as the UTC midnight the server expects (spec 2 §5). */
const utcMidnight = (day: string | null) => (day ? `${day}T00:00:00.000Z` : null);

/** The value of a select filter the grid has set on a field, if any. */
function tableSelectValue(tableFilters: Record<string, GridFilter>, field: string): string | null {
  const filter = activeFilters(tableFilters).find(([name]) => name === field)?.[1];
  return filter?.type === 'select' ? filter.value : null;
}

/** The table's filter (when included) and the dialog's own status and type, as one filter string. */
function exportFilter(tableFilter: string | null, ownItems: FilterItemInput[]): string | null {
  const parts = [tableFilter, formatFilter(ownItems)].filter((part): part is string => !!part);
  return parts.length ? parts.join(',') : null;
}

const enumOptions = (values: readonly string[]) => [
  { value: '', label: 'All' },
  ...values.map((value) => ({ value, label: spaceWords(value) })),
];

interface ExportDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The grid's current filter string ('' when none). */
  tableFilter: string;
  /**
   * The grid's filters by field. Where the grid sets the status, type or allocated status itself and
   * its filters are included, the dialog's own control gives way to it (spec 2 §2 Export dialog).
   */
  tableFilters?: Record<string, GridFilter>;
  /** The grid's search box ('' when none): exported with the table's filters. */
  tableSearch?: string;
}

export function ExportDialog({
  opened,
  onClose,
  tableFilter,
  tableFilters = {},
  tableSearch = '',
}: ExportDialogProps) {
  const companyId = useCompanyId();
  const [options, setOptions] = useState(() => loadOptions(companyId));
  const { mutate, isPending } = useExportPaymentTransactions();
  // A typed text that is no day stays in the field with its message (CalendarDateInput) and
  // exports nothing.
  const notADay = [options.fromDate, options.toDate].some(
    (day) => day !== null && !isCalendarDate(day),
  );
  const datesWrong =
    !notADay &&
    options.fromDate !== null &&
    options.toDate !== null &&
    options.fromDate > options.toDate;
  const fromTable = (field: string) =>
    options.includeTableFilters ? tableSelectValue(tableFilters, field) : null;
  const tableStatus = fromTable('status');
  const tableType = fromTable('type');
  const statusesFromTable = fromTable('allocatedStatus') !== null;
  const ownFilterItems: FilterItemInput[] = [
    ...(options.status && tableStatus === null
      ? [{ field: 'status', operator: 'eq' as const, value: options.status }]
      : []),
    ...(options.type && tableType === null
      ? [{ field: 'type', operator: 'eq' as const, value: options.type }]
      : []),
  ];
  const change = (next: Partial<ExportOptions>) =>
    setOptions((current) => ({ ...current, ...next }));

  function submit() {
    if (datesWrong || notADay) return;
    local.set(storageKey(companyId), JSON.stringify(options));
    mutate(
      {
        exportType: options.exportType,
        fromDate: utcMidnight(options.fromDate),
        toDate: utcMidnight(options.toDate),
        paymentProviderId: options.paymentProviderId,
        excludeAllocatedStatus: statusesFromTable
          ? []
          : allocatedStatuses.filter((status) => !options.allocatedStatuses.includes(status)),
        filter: exportFilter(options.includeTableFilters ? tableFilter : null, ownFilterItems),
        search: options.includeTableFilters && tableSearch.trim() ? tableSearch.trim() : null,
      },
      {
        onSuccess: (file) => {
          // spec 2 §7: "CSV blob, default file name PaymentTransactions.csv".
          saveBlob(file.blob, file.fileName ?? 'PaymentTransactions.csv');
          notifications.show({ color: 'green', message: 'file exported successfully' });
          onClose();
        },
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: failureMessage('The export failed: ', error),
          }),
      },
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Export payment transactions" size="lg" centered>
      <Stack>
        <Select
          label="Export type"
          data={exportTypes.map((value) => ({
            value,
            label: value === 'Allocations' ? 'Allocations' : 'Payments and allocations',
          }))}
          value={options.exportType}
          onChange={(value) => value && change({ exportType: value as ExportType })}
          allowDeselect={false}
        />
        <SimpleGrid cols={2}>
          <CalendarDateInput
            label="From date"
            clearable
            value={options.fromDate}
            onChange={(value) => change({ fromDate: value })}
            error={datesWrong ? paymentTransactionMessages.fromBeforeTo : undefined}
          />
          <CalendarDateInput
            label="To date"
            clearable
            value={options.toDate}
            onChange={(value) => change({ toDate: value })}
          />
        </SimpleGrid>
        <ExportProviderSelect
          opened={opened}
          value={options.paymentProviderId}
          onChange={(paymentProviderId) => change({ paymentProviderId })}
        />
        <SimpleGrid cols={2}>
          <Select
            label="Status"
            data={enumOptions(paymentTransactionStatuses)}
            value={tableStatus ?? options.status ?? ''}
            onChange={(value) =>
              change({ status: (value || null) as PaymentTransactionStatus | null })
            }
            disabled={tableStatus !== null}
            description={tableStatus !== null ? 'The table’s status filter applies.' : undefined}
            allowDeselect={false}
          />
          <Select
            label="Type"
            data={enumOptions(paymentTransactionTypes)}
            value={tableType ?? options.type ?? ''}
            onChange={(value) => change({ type: (value || null) as PaymentTransactionType | null })}
            disabled={tableType !== null}
            description={tableType !== null ? 'The table’s type filter applies.' : undefined}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Checkbox.Group
          label="Allocated statuses"
          description={
            statusesFromTable ? 'The table’s allocated status filter applies.' : undefined
          }
          value={options.allocatedStatuses}
          onChange={(values) => change({ allocatedStatuses: values as AllocatedStatus[] })}
        >
          <SimpleGrid cols={2} mt="xs">
            {allocatedStatuses.map((status) => (
              <Checkbox
                key={status}
                value={status}
                label={spaceWords(status)}
                disabled={statusesFromTable}
              />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Checkbox
          label="Include the table's filters"
          checked={options.includeTableFilters}
          disabled={!tableFilter && !tableSearch.trim()}
          description={tableSearch.trim() ? `With the search “${tableSearch.trim()}”` : undefined}
          onChange={(event) => change({ includeTableFilters: event.currentTarget.checked })}
        />
        {!tableFilter && !tableSearch.trim() && (
          <Text size="xs" c="dimmed">
            The table has no filters.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={isPending} disabled={datesWrong || notADay}>
            Export
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
