import type { AuditActivity } from '@ledgerline/contract';
import { Anchor, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { StatusTag, type StatusTone } from '@/ui/status-tag';
import { spaceWords } from '@/ui/words';

const none = '-';

/**
 * What came of the call, in words (issue 10 item 12): a 2xx answer with an error message (a
 * provider declined a capture) did not succeed, whatever its status code.
 */
export function activityOutcome(activity: AuditActivity): { label: string; tone: StatusTone } {
  if (activity.errorMessage) return { label: 'Declined', tone: 'danger' };
  const { status } = activity;
  if (status < 300) return { label: 'Succeeded', tone: 'success' };
  if (status === 400 || status === 422) return { label: 'Invalid input', tone: 'danger' };
  if (status === 401) return { label: 'Not signed in', tone: 'danger' };
  if (status === 403) return { label: 'Not allowed', tone: 'danger' };
  if (status === 404) return { label: 'Not found', tone: 'danger' };
  if (status === 409) return { label: 'Conflict', tone: 'danger' };
  if (status === 429) return { label: 'Too many requests', tone: 'danger' };
  if (status >= 500) return { label: 'Server error', tone: 'danger' };
  return { label: 'Refused', tone: 'danger' };
}

/** The screens of the records an activity can name; other kinds are named without a link. */
const recordPaths: Record<string, (id: string) => string> = {
  PaymentTransaction: (id) => `/payment-transactions/${id}`,
  PaymentRequest: (id) => `/payment-requests/${id}`,
  Transaction: (id) => `/transactions/${id}`,
  Account: (id) => `/accounts/${id}`,
  Bank: (id) => `/banks/${id}`,
  Dataset: (id) => `/settings/companies/${id}`,
  User: () => '/settings/users',
};

function ActivityRecord({ activity }: { activity: AuditActivity }) {
  const { resourceType, resourceId } = activity;
  if (!resourceType || !resourceId) return none;
  const kind = spaceWords(resourceType);
  const path = recordPaths[resourceType]?.(resourceId);
  return path ? (
    <Anchor component={Link} to={path} aria-label={`Open the ${kind.toLowerCase()}`}>
      {kind}
    </Anchor>
  ) : (
    kind
  );
}

function ActivityOutcome({ activity }: { activity: AuditActivity }) {
  const { label, tone } = activityOutcome(activity);
  return (
    <Stack gap={2} align="flex-start">
      <StatusTag label={`${label} (${activity.status})`} tone={tone} />
      {activity.errorMessage && (
        <Text size="xs" c="dimmed">
          {activity.errorMessage}
        </Text>
      )}
    </Stack>
  );
}

/**
 * spec 3 §2: action (the operation spaced into words), user, timestamp, status, IP address; the
 * status says the outcome in words and the record the call touched links to it (issue 10 item 12).
 */
export function useActivityColumns() {
  return useMemo(
    (): DataGridColumn<AuditActivity>[] => [
      {
        accessor: 'operation',
        title: 'Action',
        render: (activity) => spaceWords(activity.operation),
      },
      { accessor: 'userName', title: 'User', render: (activity) => activity.userName ?? none },
      {
        accessor: 'timestamp',
        title: 'Timestamp',
        noWrap: true,
        render: (activity) => <DateTime value={activity.timestamp} />,
      },
      {
        accessor: 'status',
        title: 'Status',
        render: (activity) => <ActivityOutcome activity={activity} />,
      },
      {
        accessor: 'resourceId',
        title: 'Record',
        render: (activity) => <ActivityRecord activity={activity} />,
      },
      {
        accessor: 'ipAddress',
        title: 'IP address',
        render: (activity) => activity.ipAddress ?? none,
      },
    ],
    [],
  );
}
