import { isWorkingDatasetStatus, type DatasetStatus } from '@ledgerline/contract';
import { Group, Loader, Text } from '@mantine/core';
import { StatusTag, type StatusTone } from '@/ui/status-tag';

const tones: Partial<Record<DatasetStatus, StatusTone>> = {
  Active: 'success',
  Inactive: 'neutral',
  Error: 'danger',
};

/** spec 1 §4: working states with a spinner, Error in red (as in the company dropdown). */
export function DatasetStatusDisplay({ status }: { status: DatasetStatus }) {
  if (isWorkingDatasetStatus(status)) {
    return (
      <Group gap={6} wrap="nowrap">
        <Loader size={14} aria-hidden />
        <Text size="sm" c="dimmed">
          {status}
        </Text>
      </Group>
    );
  }
  return <StatusTag label={status} tone={tones[status] ?? 'neutral'} />;
}
