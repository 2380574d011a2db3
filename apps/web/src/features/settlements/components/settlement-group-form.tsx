import { settlementMessages, type SettlementGroup } from '@ledgerline/contract';
import { Button, Group, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useSaveSettlementGroup } from '../api/save-settlement-group';

interface GroupFormValues {
  name: string;
  description: string;
  customerEnabled: boolean;
}

/** spec 3 §5 group rules, the server's messages. */
export function validateGroup(values: GroupFormValues) {
  const name = values.name.trim();
  return {
    name:
      name.length === 0
        ? settlementMessages.nameRequired
        : name.length > 100
          ? settlementMessages.nameTooLong
          : null,
    description:
      values.description.trim().length > 500 ? settlementMessages.groupDescriptionTooLong : null,
  };
}

/** spec 3 §2 settlement group form: name, description, enable for customers. */
export function SettlementGroupForm({
  group,
  onDone,
}: {
  group?: SettlementGroup;
  onDone?: () => void;
}) {
  const save = useSaveSettlementGroup();
  const navigate = useNavigate();
  const form = useForm<GroupFormValues>({
    mode: 'controlled',
    initialValues: {
      name: group?.name ?? '',
      description: group?.description ?? '',
      customerEnabled: group?.customerEnabled ?? true,
    },
    validate: validateGroup,
  });

  const submit = form.onSubmit((values) => {
    const body = {
      name: values.name.trim(),
      description: values.description.trim() || null,
      customerEnabled: values.customerEnabled,
    };
    save.mutate(
      group ? { ...body, id: group.id, transactionEnabled: group.transactionEnabled } : body,
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'green',
            message: group ? 'Settlement group updated' : 'Settlement group added',
          });
          // spec 3 §2: the create page replaces the location with the new group's page.
          if (!group) void navigate(`/settlements/${saved.id}`, { replace: true });
          onDone?.();
        },
        onError: (error) => {
          form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
          notifications.show({
            color: 'red',
            message: failureMessage('An error occurred while saving the settlement group: ', error),
          });
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        <TextInput label="Name" required {...form.getInputProps('name')} />
        <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
        <Switch
          label="Enable for customers"
          {...form.getInputProps('customerEnabled', { type: 'checkbox' })}
        />
        <Group justify="flex-end">
          {onDone && (
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
