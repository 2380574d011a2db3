import { messages, type AccessKey, type CreatedAccessKey } from '@ledgerline/contract';
import { Alert, Button, Code, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle, IconKey } from '@tabler/icons-react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { isApiError } from '@/lib/http';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { DataGrid } from '@/ui/data-grid';
import { failureMessage } from '@/ui/form-errors';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { useDeleteKey } from '../api/delete-key';
import { useKeyCount } from '../api/get-key-count';
import { useKeyMaximum } from '../api/get-key-maximum';
import { useKeys } from '../api/get-keys';
import type { KeyKind } from '../api/key-kinds';
import { useKeyColumns } from '../table/use-key-columns';
import { CreatedKeyDialog } from './created-key-dialog';
import { KeyFormDialog } from './key-form-dialog';
import { keyTexts } from './key-texts';

const introductions: Record<KeyKind, ReactNode> = {
  access: (
    <>
      <Text size="sm" c="dimmed">
        Access keys let your ERP connector and other systems call the Ledgerline API without a
        person signing in. Give each system its own key; it sends the key with every request in the
        header <Code>Authorization: Bearer &lt;key&gt;</Code>.
      </Text>
      <Text size="sm" c="dimmed" mt={4}>
        A key can do what a Standard user can do, in every company of this account. Treat it like a
        password: set an expiry date where you can, and delete a key as soon as it is no longer
        needed or may have been exposed.
      </Text>
    </>
  ),
  subscription: (
    <Text size="sm" c="dimmed">
      Subscription keys let other systems call the Ledgerline API without a person signing in. Treat
      a key like a password and delete it as soon as it is no longer needed.
    </Text>
  ),
};

/** The dialog keeps its key while it closes; `key` gives every opening a fresh form. */
interface Dialog {
  opened: boolean;
  accessKey?: AccessKey;
  key: number;
}

/** A row's Delete: asks first, then says how it went. */
function useDeleteWithConfirmation(kind: KeyKind) {
  const texts = keyTexts[kind];
  const { mutate: deleteKey } = useDeleteKey(kind);
  return useCallback(
    (accessKey: AccessKey) =>
      confirmDestructive({
        title: texts.deleteTitle,
        message: `Are you sure you want to delete the ${texts.noun} ${accessKey.name}? Systems using it will no longer be able to call the API.`,
        onConfirm: () =>
          deleteKey(accessKey.id, {
            onSuccess: () => notifications.show({ color: 'green', message: texts.deleted }),
            onError: (error) =>
              notifications.show({
                color: 'red',
                message: failureMessage(texts.deleteFailed, error),
              }),
          }),
      }),
    [deleteKey, texts],
  );
}

/** spec 1 §2.8: the access keys screen, or its subscription keys alternative. */
export function KeysScreen({ kind }: { kind: KeyKind }) {
  const texts = keyTexts[kind];
  const grid = useGridState({ defaultSort: { field: 'name', direction: 'asc' }, address: true });
  // The search box's words, found by the server; the grid sorts and pages them.
  const keys = useKeys(kind, grid.query.search ?? '');
  const count = useKeyCount(kind);
  const maximum = useKeyMaximum(kind);
  const [dialog, setDialog] = useState<Dialog>({ opened: false, key: 0 });
  const [secret, setSecret] = useState<string | null>(null);

  useEffect(() => {
    if (keys.isError && !(isApiError(keys.error) && keys.error.status === 401)) {
      notifications.show({ color: 'red', message: texts.getFailed });
    }
  }, [keys.isError, keys.error, texts.getFailed]);

  const open = useCallback(
    (accessKey?: AccessKey) =>
      setDialog((current) => ({ opened: true, accessKey, key: current.key + 1 })),
    [],
  );
  const close = () => setDialog((current) => ({ ...current, opened: false }));
  const onCreated = (created: CreatedAccessKey) => {
    close();
    setSecret(created.accessKey);
  };
  const onDelete = useDeleteWithConfirmation(kind);
  const columns = useKeyColumns({ kind, onEdit: open, onDelete });

  const limitKnown = count.data !== undefined && maximum.data !== undefined;
  const belowMaximum = limitKnown && count.data < maximum.data;

  return (
    <Stack gap="lg">
      <PageHeader
        title={texts.title}
        description={introductions[kind]}
        actions={
          belowMaximum && (
            <Button leftSection={<IconKey size={16} />} onClick={() => open()}>
              {texts.createButton}
            </Button>
          )
        }
      />
      {limitKnown && !belowMaximum && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />}>
          {messages.accessKeyMaximumReached}
        </Alert>
      )}
      <GridToolbar grid={grid} listName={texts.title.toLowerCase()} placeholder="Name or prefix" />
      <DataGrid
        label={texts.title}
        grid={grid}
        columns={columns}
        records={keys.data}
        fetching={keys.isPending}
        noRecordsText={texts.empty}
      />
      <KeyFormDialog
        key={dialog.key}
        kind={kind}
        opened={dialog.opened}
        accessKey={dialog.accessKey}
        onClose={close}
        onCreated={onCreated}
      />
      <CreatedKeyDialog kind={kind} secret={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}
