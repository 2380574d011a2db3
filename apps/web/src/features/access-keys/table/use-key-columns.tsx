import type { AccessKey } from '@ledgerline/contract';
import { ActionIcon, Code, Group, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { DataGridColumn } from '@/ui/data-grid';
import { DateTime } from '@/ui/date-time';
import type { KeyKind } from '../api/key-kinds';

interface KeyColumnsOptions {
  kind: KeyKind;
  onEdit: (key: AccessKey) => void;
  onDelete: (key: AccessKey) => void;
}

/** spec 1 §2.8: the value is never kept, only its prefix, shown followed by dots. */
export function maskedKey(prefix: string): string {
  return `${prefix}…`;
}

/**
 * spec 1 §2.8: name, prefix, valid until (or 'no expiration'), created on, edit and delete.
 * Subscription keys show no expiry and cannot be edited.
 */
export function useKeyColumns({ kind, onEdit, onDelete }: KeyColumnsOptions) {
  return useMemo((): DataGridColumn<AccessKey>[] => {
    const access = kind === 'access';
    const columns: DataGridColumn<AccessKey>[] = [
      { accessor: 'name', title: 'Name', sortable: true },
      {
        accessor: 'prefix',
        title: access ? 'Prefix' : 'Key',
        render: (key) => <Code>{maskedKey(key.prefix)}</Code>,
      },
    ];
    if (access) {
      columns.push({
        accessor: 'validUntil',
        title: 'Valid until',
        sortable: true,
        render: (key) =>
          key.validUntil ? (
            <DateTime value={key.validUntil} dateOnly />
          ) : (
            <Text size="sm" c="dimmed">
              No expiration
            </Text>
          ),
      });
    }
    columns.push(
      {
        accessor: 'createdOn',
        title: 'Created on',
        sortable: true,
        render: (key) => <DateTime value={key.createdOn} dateOnly />,
      },
      {
        accessor: 'actions',
        title: 'Actions',
        textAlign: 'right',
        width: 100,
        render: (key) => (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            {access && (
              <Tooltip label="Edit">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Edit ${key.name}`}
                  onClick={() => onEdit(key)}
                >
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${key.name}`}
                onClick={() => onDelete(key)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    );
    return columns;
  }, [kind, onEdit, onDelete]);
}
