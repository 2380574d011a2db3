import {
  paymentProviderMessages as messages,
  type PaymentProviderSummary,
} from '@ledgerline/contract';
import { Alert, Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { DataGrid } from '@/ui/data-grid';
import { failureMessage } from '@/ui/form-errors';
import { PageHeader } from '@/ui/page-header';
import { GridToolbar } from '@/ui/grid-toolbar';
import { useGridState } from '@/ui/use-grid-state';
import { usePermission } from '@/ui/use-permission';
import { useDeletePaymentProvider } from '../api/delete-payment-provider';
import { useDefaultPaymentProvider } from '../api/get-default-payment-provider';
import { usePaymentProviders } from '../api/get-payment-providers';
import { useSetDefaultPaymentProvider } from '../api/set-default-payment-provider';
import { usePaymentProvidersColumns } from '../table/use-payment-providers-columns';
import { AddProviderDialog } from './add-provider-dialog';

/**
 * spec 1 §2.1 `/settings/payment-providers/new`: the list with the provider choice (spec 3 §2, the
 * Add provider dialog) open. Closing the choice returns to the list's own address.
 */
export function NewPaymentProviderPage() {
  return <PaymentProvidersPage choosing />;
}

/** A row's Make default and Delete (after a confirmation), each saying how it went. */
function useProviderRowActions() {
  const setDefault = useSetDefaultPaymentProvider();
  const remove = useDeletePaymentProvider();
  const onMakeDefault = useCallback(
    (provider: PaymentProviderSummary) =>
      setDefault.mutate(provider.id, {
        onSuccess: () => notifications.show({ color: 'green', message: messages.defaultUpdated }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: failureMessage(messages.defaultUpdateFailed, error),
          }),
      }),
    [setDefault],
  );
  const onDelete = useCallback(
    (provider: PaymentProviderSummary) =>
      confirmDestructive({
        title: 'Delete Payment Provider',
        message: `Are you sure you want to delete ${provider.name}?`,
        onConfirm: () =>
          remove.mutate(provider.id, {
            onSuccess: () => notifications.show({ color: 'green', message: messages.deleted }),
            onError: (error) =>
              notifications.show({
                color: 'red',
                message: failureMessage(messages.deleteFailed, error),
              }),
          }),
      }),
    [remove],
  );
  return { onMakeDefault, onDelete };
}

/** spec 3 §2 Payment providers list; spec 3 §9: sorted by name ascending. Grid name 'payment provider'. */
export function PaymentProvidersPage({ choosing = false }: { choosing?: boolean }) {
  const grid = useGridState({
    name: 'payment provider',
    defaultSort: { field: 'name', direction: 'asc' },
    address: true,
  });
  const providers = usePaymentProviders(grid.query);
  const defaultProvider = useDefaultPaymentProvider();
  const canConfigure = usePermission('ConfigurePaymentProvider');
  const canDelete = usePermission('DeletePaymentProvider');
  const [adding, setAdding] = useState(choosing);
  const navigate = useNavigate();
  const closeChoice = () => {
    setAdding(false);
    if (choosing) void navigate('/settings/payment-providers', { replace: true });
  };

  const { onMakeDefault, onDelete } = useProviderRowActions();
  const columns = usePaymentProvidersColumns({ canConfigure, canDelete, onMakeDefault, onDelete });

  // The banners speak of the company, not of the filtered page.
  const unfiltered =
    (grid.query.filter === undefined || grid.query.filter === '') && !grid.query.search;
  const none = unfiltered && providers.data?.totalItems === 0;
  const noDefault = defaultProvider.data?.paymentProviderId === null && !none;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Payment Providers"
        description="The card and bank providers your customers pay through. One of them must be the default before payments can be accepted."
        actions={
          canConfigure && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add Provider
            </Button>
          )
        }
      />
      {providers.isError && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />}>
          {messages.loadFailed}
        </Alert>
      )}
      {none && (
        <Alert color="yellow" title={messages.noProvidersConfigured}>
          Payments cannot be accepted until a payment provider is added and set as the default.
        </Alert>
      )}
      {noDefault && defaultProvider.isSuccess && (
        <Alert color="red" title={messages.noDefaultSelected}>
          Payments cannot be accepted until one of the payment providers is made the default.
        </Alert>
      )}
      <GridToolbar grid={grid} listName="payment providers" placeholder="Name or description" />
      <DataGrid
        label="Payment providers"
        grid={grid}
        columns={columns}
        records={providers.data?.items}
        totalRecords={providers.data?.totalItems ?? 0}
        fetching={providers.isPending || providers.isPlaceholderData}
        noRecordsText={messages.noProvidersConfigured}
      />
      <AddProviderDialog opened={adding} onClose={closeChoice} />
    </Stack>
  );
}
