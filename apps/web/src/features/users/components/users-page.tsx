import { messages, type User } from '@ledgerline/contract';
import { Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUserPlus } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useCurrentUser } from '@/auth/api/get-me';
import { isApiError } from '@/lib/http';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { DataGrid } from '@/ui/data-grid';
import { failureMessage } from '@/ui/form-errors';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';
import { useUsersColumns } from '../table/use-users-columns';
import { UserFormDialog } from './user-form-dialog';

/** The dialog keeps its user while it closes; `key` gives every opening a fresh form. */
interface Dialog {
  opened: boolean;
  user?: User;
  key: number;
}

/** spec 1 §2.6 /settings/users. */
export function UsersPage() {
  const { data: me } = useCurrentUser();
  const grid = useGridState({
    name: 'users',
    defaultSort: { field: 'displayName', direction: 'asc' },
    address: true,
  });
  // The search box's words, found by the server; the grid sorts and pages them.
  const users = useUsers(grid.query.search ?? '');
  const [dialog, setDialog] = useState<Dialog>({ opened: false, key: 0 });
  const { mutate: deleteUser } = useDeleteUser();

  useEffect(() => {
    if (users.isError && !(isApiError(users.error) && users.error.status === 401)) {
      notifications.show({ color: 'red', message: messages.usersGetFailed });
    }
  }, [users.isError, users.error]);

  const open = useCallback(
    (user?: User) => setDialog((current) => ({ opened: true, user, key: current.key + 1 })),
    [],
  );
  const onDelete = useCallback(
    (user: User) =>
      confirmDestructive({
        title: 'Delete User',
        message: `Are you sure you want to delete the user ${user.displayName}? They will no longer be able to sign in.`,
        onConfirm: () =>
          deleteUser(user.id, {
            onSuccess: () => notifications.show({ color: 'green', message: messages.userDeleted }),
            onError: (error) =>
              notifications.show({
                color: 'red',
                message: failureMessage(messages.userDeleteFailed, error),
              }),
          }),
      }),
    [deleteUser],
  );
  const columns = useUsersColumns({ currentUserId: me?.id, onEdit: open, onDelete });

  return (
    <Stack gap="lg">
      <PageHeader
        title="Users"
        description="The people who can sign in to this account and their roles. A new user receives an invitation by e-mail."
        actions={
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => open()}>
            Add User
          </Button>
        }
      />
      <GridToolbar grid={grid} listName="users" placeholder="Name or e-mail" />
      <DataGrid
        label="Users"
        grid={grid}
        columns={columns}
        records={users.data}
        fetching={users.isFetching}
        noRecordsText="No users found"
      />
      <UserFormDialog
        key={dialog.key}
        opened={dialog.opened}
        user={dialog.user}
        isCurrentUser={dialog.user !== undefined && dialog.user.id === me?.id}
        onClose={() => setDialog((current) => ({ ...current, opened: false }))}
      />
    </Stack>
  );
}
