import type { AuditActivity } from '@ledgerline/contract';
import { useMemo } from 'react';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import { StatusTag } from '@/ui/status-tag';
import { spaceWords } from '@/ui/words';

const none = '-';

/** spec 3 §2: action (the operation spaced into words), user, timestamp, status, IP address. */
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
        render: (activity) => (
          <StatusTag
            label={String(activity.status)}
            tone={activity.status < 400 ? 'success' : 'danger'}
          />
        ),
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
