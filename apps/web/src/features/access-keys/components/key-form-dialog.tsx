import {
  accessKeyBodySchema,
  isCalendarDate,
  type AccessKey,
  type CreatedAccessKey,
} from '@ledgerline/contract';
import { Modal, Stack, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useUserSetting } from '@/auth/api/get-me';
import { isApiError } from '@/lib/http';
import { ianaTimeZone } from '@/ui/format';
import { CalendarDateInput } from '@/ui/calendar-date-input';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useCreateKey } from '../api/create-key';
import type { KeyKind } from '../api/key-kinds';
import { useUpdateKey } from '../api/update-key';
import { keyTexts, maximumKeyCountReached } from './key-texts';
import { dayOf, endOfDayIso } from './valid-until';
import { DialogActions } from '@/ui/dialog-actions';

interface KeyFormValues {
  name: string;
  /** The end of the chosen day as an ISO instant; null never expires. */
  validUntil: string | null;
}

/** spec 1 §5: name required, at most 255, trimmed; a valid-until later than now. */
const keyBody = accessKeyBodySchema();
const resolver = zod4Resolver(keyBody);
const isInstant = /^\d{4}-\d{2}-\d{2}T/;

interface KeyFormProps {
  kind: KeyKind;
  /** The key edited; none to create one. */
  accessKey?: AccessKey;
  onDone: () => void;
  onCreated: (created: CreatedAccessKey) => void;
}

/**
 * A refused save: past the maximum number of keys, the server's words and the dialog closes;
 * otherwise the errors under their fields and a toast.
 */
function keyFailure(form: UseFormReturnType<KeyFormValues>, onDone: () => void, prefix: string) {
  return (error: Error) => {
    if (isApiError(error) && error.errorCode === maximumKeyCountReached) {
      notifications.show({ color: 'red', message: error.problem?.detail ?? error.message });
      onDone();
      return;
    }
    form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
    notifications.show({ color: 'red', message: failureMessage(prefix, error) });
  };
}

function KeyForm({ kind, accessKey, onDone, onCreated }: KeyFormProps) {
  const texts = keyTexts[kind];
  const withValidUntil = kind === 'access'; // Subscription keys have no expiry on their screen.
  const timeZone = ianaTimeZone(useUserSetting().timeZoneId);
  const create = useCreateKey(kind);
  const update = useUpdateKey(kind);
  const form = useForm<KeyFormValues>({
    mode: 'controlled',
    initialValues: { name: accessKey?.name ?? '', validUntil: accessKey?.validUntil ?? null },
    validate: (values) => resolver({ ...values }),
  });

  const fail = (prefix: string) => keyFailure(form, onDone, prefix);

  const submit = form.onSubmit((values) => {
    const parsed = keyBody.parse(values);
    const body = withValidUntil ? parsed : { name: parsed.name };
    if (accessKey) {
      update.mutate(
        { id: accessKey.id, body },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: texts.updated });
            onDone();
          },
          onError: fail(texts.updateFailed),
        },
      );
      return;
    }
    create.mutate(body, {
      onSuccess: (created) => {
        notifications.show({ color: 'green', message: texts.added });
        onCreated(created);
      },
      onError: fail(texts.createFailed),
    });
  });

  const validUntilProps = form.getInputProps('validUntil');
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          description="Say which system uses the key, for example 'Sage 200 connector'."
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        {withValidUntil && (
          <CalendarDateInput
            label="Valid until"
            description="The key stops working at the end of this day. Leave empty for a key that does not expire."
            placeholder="No expiration"
            clearable
            popoverProps={{ withinPortal: false }}
            value={
              form.values.validUntil && isInstant.test(form.values.validUntil)
                ? dayOf(form.values.validUntil, timeZone)
                : form.values.validUntil
            }
            // A day is kept to its end in the user's zone; a text that is no day stays as typed,
            // for the contract's own check to refuse.
            onChange={(day) =>
              form.setFieldValue(
                'validUntil',
                day && isCalendarDate(day) ? endOfDayIso(day, timeZone) : day,
              )
            }
            error={validUntilProps.error}
            onBlur={validUntilProps.onBlur}
            onFocus={validUntilProps.onFocus}
          />
        )}
        <DialogActions onCancel={onDone} loading={create.isPending || update.isPending} />
      </Stack>
    </form>
  );
}

interface KeyFormDialogProps extends Omit<KeyFormProps, 'onDone'> {
  opened: boolean;
  onClose: () => void;
}

/** spec 1 §2.8: the add and edit dialog of a key. */
export function KeyFormDialog({ opened, onClose, ...props }: KeyFormDialogProps) {
  const texts = keyTexts[props.kind];
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={props.accessKey ? texts.editTitle : texts.createTitle}
      centered
    >
      <KeyForm {...props} onDone={onClose} />
    </Modal>
  );
}
