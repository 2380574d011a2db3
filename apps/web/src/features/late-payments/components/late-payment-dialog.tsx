import { latePaymentMessages, type LatePaymentConfiguration } from '@ledgerline/contract';
import { Modal, NumberInput, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useSaveLatePayment } from '../api/save-late-payment';
import { StatutoryPanel } from './statutory-panel';
import { DialogActions } from '@/ui/dialog-actions';

interface Values {
  name: string;
  enabled: boolean;
  description: string;
  gracePeriodInDays: number | string;
  applyCharges: boolean;
}

export function validateLatePayment(values: Values) {
  const grace = values.gracePeriodInDays;
  return {
    name:
      values.name.trim() === ''
        ? latePaymentMessages.nameRequired
        : values.name.trim().length > 100
          ? latePaymentMessages.nameTooLong
          : null,
    gracePeriodInDays:
      grace === '' || !Number.isInteger(Number(grace)) || Number(grace) < 0
        ? latePaymentMessages.gracePeriodRequired
        : null,
    description:
      values.description.trim().length > 500 ? latePaymentMessages.descriptionTooLong : null,
  };
}

/** The configuration's values, or a new one's: grace period 0, apply charges and enabled on (spec 3 §9). */
function initialValuesOf(configuration: LatePaymentConfiguration | undefined): Values {
  return {
    name: configuration?.name ?? '',
    enabled: configuration?.enabled ?? true,
    description: configuration?.description ?? '',
    gracePeriodInDays: configuration?.gracePeriodInDays ?? 0,
    applyCharges: configuration?.applyCharges ?? true,
  };
}

function LatePaymentForm({
  configuration,
  onDone,
}: {
  configuration?: LatePaymentConfiguration;
  onDone: () => void;
}) {
  const save = useSaveLatePayment();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initialValuesOf(configuration),
    validate: validateLatePayment,
  });
  const submit = form.onSubmit((values) => {
    const body = {
      type: 'Uk' as const,
      name: values.name.trim(),
      enabled: values.enabled,
      description: values.description.trim() || null,
      gracePeriodInDays: Number(values.gracePeriodInDays),
      applyCharges: values.applyCharges,
    };
    save.mutate(configuration ? { ...body, id: configuration.id } : body, {
      onSuccess: () => {
        notifications.show({
          color: 'green',
          message: configuration
            ? 'Late payment configuration updated'
            : 'Late payment configuration added',
        });
        onDone();
      },
      onError: (error) => {
        form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
        notifications.show({
          color: 'red',
          message: failureMessage(
            'An error occurred while saving the late payment configuration: ',
            error,
          ),
        });
      },
    });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Name" required {...form.getInputProps('name')} />
        <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
        <NumberInput
          label="Grace period in days"
          required
          min={0}
          allowDecimal={false}
          {...form.getInputProps('gracePeriodInDays')}
        />
        <Switch
          label="Apply charges"
          {...form.getInputProps('applyCharges', { type: 'checkbox' })}
        />
        <StatutoryPanel />
        <DialogActions onCancel={onDone} loading={save.isPending} />
      </Stack>
    </form>
  );
}

/** spec 3 §2 the UK statutory late payment form. */
export function LatePaymentDialog({
  opened,
  onClose,
  configuration,
}: {
  opened: boolean;
  onClose: () => void;
  configuration?: LatePaymentConfiguration;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      centered
      title={configuration ? 'Edit UK Statutory Late Payment' : 'New UK Statutory Late Payment'}
    >
      {opened && <LatePaymentForm configuration={configuration} onDone={onClose} />}
    </Modal>
  );
}
