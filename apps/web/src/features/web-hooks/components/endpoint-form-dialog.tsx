import {
  webHookEndpointBody,
  webHookEventTypes,
  type WebHookEndpoint,
  type WebHookEndpointInput,
} from '@ledgerline/contract';
import { Modal, MultiSelect, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { failureMessage, showSubmitFailure } from '@/ui/form-errors';
import { useSaveEndpoint } from '../api/save-endpoint';
import { DialogActions } from '@/ui/dialog-actions';

interface EndpointFormValues {
  url: string;
  description: string;
  eventTypes: string[];
  disabled: boolean;
}

const resolver = zod4Resolver(webHookEndpointBody);

interface Props {
  opened: boolean;
  /** The endpoint edited; none to add one. */
  endpoint?: WebHookEndpoint;
  onClose: () => void;
}

/** Add or change an endpoint: https URL, description, the event types it takes, on or off. */
export function EndpointFormDialog({ opened, endpoint, onClose }: Props) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={endpoint ? 'Edit endpoint' : 'Add endpoint'}
      size="lg"
      centered
    >
      <EndpointForm endpoint={endpoint} onDone={onClose} />
    </Modal>
  );
}

function EndpointForm({ endpoint, onDone }: { endpoint?: WebHookEndpoint; onDone: () => void }) {
  const save = useSaveEndpoint();
  const form = useForm<EndpointFormValues>({
    mode: 'controlled',
    initialValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      eventTypes: endpoint?.eventTypes ?? [],
      disabled: endpoint?.disabled ?? false,
    },
    validate: (values) => resolver({ ...values }),
  });
  const submit = form.onSubmit((values) => {
    const body = webHookEndpointBody.parse(values) as WebHookEndpointInput;
    save.mutate(
      { id: endpoint?.id, body },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            message: endpoint ? 'Endpoint saved.' : 'Endpoint added.',
          });
          onDone();
        },
        onError: (error) =>
          showSubmitFailure(error, form, () =>
            notifications.show({
              color: 'red',
              message: failureMessage('An error occurred while saving the endpoint: ', error),
            }),
          ),
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="URL"
          description="Where Ledgerline POSTs each event, signed with the endpoint's secret (Standard Webhooks)."
          placeholder="https://erp.example.com/ledgerline/hooks"
          required
          data-autofocus
          {...form.getInputProps('url')}
        />
        <TextInput
          label="Description"
          placeholder="ERP connector"
          {...form.getInputProps('description')}
        />
        <MultiSelect
          label="Event types"
          description="Leave empty to receive every event type."
          placeholder="All event types"
          data={[...webHookEventTypes]}
          clearable
          searchable
          comboboxProps={{ withinPortal: false }}
          {...form.getInputProps('eventTypes')}
        />
        {endpoint && (
          <Switch
            label="Disabled (nothing is sent; waiting deliveries fail)"
            {...form.getInputProps('disabled', { type: 'checkbox' })}
          />
        )}
        <DialogActions onCancel={onDone} loading={save.isPending} />
      </Stack>
    </form>
  );
}
