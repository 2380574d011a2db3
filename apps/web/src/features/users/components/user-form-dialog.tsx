import {
  createUserBody,
  messages,
  roles,
  updateUserBody,
  type Role,
  type User,
} from '@ledgerline/contract';
import { Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { failureMessage, showSubmitFailure } from '@/ui/form-errors';
import { useCreateUser } from '../api/create-user';
import { useUpdateUser } from '../api/update-user';
import { DialogActions } from '@/ui/dialog-actions';

interface UserFormValues {
  id: string;
  name: string;
  email: string;
  role: Role;
}

interface UserFormProps {
  /** The user edited; none to add one. */
  user?: User;
  /** The signed-in user cannot change their own role (spec 1 §2.6). */
  isCurrentUser: boolean;
  onDone: () => void;
}

const addResolver = zod4Resolver(createUserBody);
// Editing checks the Name field with the same rule as adding; the body then goes as displayName.
const editResolver = zod4Resolver(createUserBody.pick({ name: true }));

/** The user's values, or a new Standard user's. */
function initialValuesOf(user: User | undefined): UserFormValues {
  return {
    id: user?.id ?? '',
    name: user?.displayName ?? '',
    email: user?.emailAddress ?? '',
    role: user?.role ?? 'Standard',
  };
}

function UserForm({ user, isCurrentUser, onDone }: UserFormProps) {
  const editing = user !== undefined;
  const form = useForm<UserFormValues>({
    mode: 'controlled',
    initialValues: initialValuesOf(user),
    validate: (values) =>
      editing ? editResolver({ name: values.name }) : addResolver({ ...values }),
  });
  const create = useCreateUser();
  const update = useUpdateUser();

  // The update sends the spec's displayName (spec 1 §7); the form's field is Name.
  const setErrors = (errors: Record<string, string>) => {
    const { displayName, ...others } = errors;
    form.setErrors(displayName ? { ...others, name: displayName } : others);
  };
  const fail = (prefix: string) => (error: Error) =>
    showSubmitFailure(error, { getValues: form.getValues, setErrors }, () =>
      notifications.show({ color: 'red', message: failureMessage(prefix, error) }),
    );

  const submit = form.onSubmit((values) => {
    if (!editing) {
      const body = createUserBody.parse({
        name: values.name,
        email: values.email,
        role: values.role,
        redirectUri: `${window.location.origin}/`,
      });
      create.mutate(body, {
        onSuccess: () => {
          notifications.show({ color: 'green', message: messages.userCreated });
          onDone();
        },
        onError: fail(messages.userCreateFailed),
      });
      return;
    }
    const body = updateUserBody.parse({ id: values.id, displayName: values.name });
    const role = !isCurrentUser && values.role !== user.role ? values.role : undefined;
    update.mutate(
      { body, role },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: messages.userUpdated });
          onDone();
        },
        onError: fail(messages.userUpdateFailed),
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
        <TextInput
          label="Email"
          type="email"
          required={!editing}
          disabled={editing}
          {...form.getInputProps('email')}
        />
        <Select
          label="Role"
          data={roles}
          allowDeselect={false}
          disabled={editing && isCurrentUser}
          description={editing && isCurrentUser ? messages.cannotChangeOwnRole : undefined}
          {...form.getInputProps('role')}
        />
        <DialogActions onCancel={onDone} loading={create.isPending || update.isPending} />
      </Stack>
    </form>
  );
}

interface UserFormDialogProps {
  opened: boolean;
  user?: User;
  isCurrentUser: boolean;
  onClose: () => void;
}

/** spec 1 §2.6: the add-user and edit-user dialog. */
export function UserFormDialog({ opened, user, isCurrentUser, onClose }: UserFormDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={user ? 'Edit User' : 'Add User'} centered>
      <UserForm user={user} isCurrentUser={isCurrentUser} onDone={onClose} />
    </Modal>
  );
}
