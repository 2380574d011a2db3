import { roles, type User } from '@ledgerline/contract';
import { ActionIcon, Badge, Box, Group, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { DataGridColumn } from '@/ui/data-grid';

interface UsersColumnsOptions {
  /** The signed-in user: their own row has no delete (spec 1 §2.6). */
  currentUserId: string | undefined;
  onEdit: (user: User) => void;
  onDelete: (user: User) => void;
}

/** spec 1 §2.6: display name, email address, role and actions. */
export function useUsersColumns({ currentUserId, onEdit, onDelete }: UsersColumnsOptions) {
  return useMemo(
    (): DataGridColumn<User>[] => [
      {
        accessor: 'displayName',
        title: 'Display name',
        sortable: true,
        filter: { type: 'text' },
        render: (user) => (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm">{user.displayName}</Text>
            {user.invitationPending && (
              <Badge size="xs" variant="light" color="yellow">
                Invited
              </Badge>
            )}
          </Group>
        ),
      },
      {
        accessor: 'emailAddress',
        title: 'Email address',
        sortable: true,
        filter: { type: 'text' },
      },
      {
        accessor: 'role',
        title: 'Role',
        sortable: true,
        filter: { type: 'select', options: roles },
      },
      {
        accessor: 'actions',
        title: 'Actions',
        textAlign: 'right',
        width: 110,
        render: (user) => (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label="Edit">
              <ActionIcon
                variant="subtle"
                aria-label={`Edit ${user.displayName}`}
                onClick={() => onEdit(user)}
              >
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            {user.id !== currentUserId ? (
              <Tooltip label="Delete">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete ${user.displayName}`}
                  onClick={() => onDelete(user)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            ) : (
              // spec 1 §2.6: no delete on your own row; its place stays empty, so the Edit icons
              // line up in one column.
              <Box w={28} h={28} aria-hidden data-slot="no-delete" />
            )}
          </Group>
        ),
      },
    ],
    [currentUserId, onEdit, onDelete],
  );
}
