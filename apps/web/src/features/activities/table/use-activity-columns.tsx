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
 * What came of the call, in a merchant's words: Succeeded,
 * Declined (a 2xx answer with an error message: a provider declined a capture, whatever its status
 * code), Refused with the reason a 4xx gives, or Failed when the server could not do it. The
 * status code itself is only the badge's title, for support.
 */
export function activityOutcome(activity: AuditActivity): { label: string; tone: StatusTone } {
  if (activity.errorMessage) return { label: 'Declined', tone: 'danger' };
  const { status } = activity;
  if (status < 400) return { label: 'Succeeded', tone: 'success' };
  if (status >= 500) return { label: 'Failed: server error', tone: 'danger' };
  return { label: refusals[status] ? `Refused: ${refusals[status]}` : 'Refused', tone: 'danger' };
}

/** Why a 4xx refused the call. */
const refusals: Record<number, string> = {
  400: 'invalid input',
  401: 'not signed in',
  403: 'not allowed',
  404: 'not found',
  409: 'conflicting change',
  413: 'file too large',
  422: 'invalid input',
  429: 'too many requests',
};

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
      <StatusTag label={label} tone={tone} sentenceCase title={`HTTP ${activity.status}`} />
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
 * status says the outcome in words and the record the call touched links to it.
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
