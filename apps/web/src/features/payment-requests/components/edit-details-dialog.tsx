import {
  paymentRequestMessages,
  updatePaymentRequestBody,
  usageTypes,
  type PaymentRequest,
} from '@ledgerline/contract';
import { Group, Modal, Select, Stack, Textarea } from '@mantine/core';
import { CalendarDateInput } from '@/ui/calendar-date-input';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useUpdatePaymentRequest } from '../api/update-payment-request';
import { dayOfIso, failedUpdate, shownUsage } from './request-texts';
import { DialogActions } from '@/ui/dialog-actions';

type DetailsValues = {
  id: string;
  description: string;
  validFrom: string | null;
  validUntil: string | null;
  paymentRequiredBy: string | null;
  usageType: string;
};
const resolver = zod4Resolver(updatePaymentRequestBody);

const editable = [
  'description',
  'validFrom',
  'validUntil',
  'paymentRequiredBy',
  'usageType',
] as const;

/**
 * Only what the user changed is sent (absent fields stay, spec 2 §5), so editing
 * the description leaves the request's valid-from and valid-until instants as they are instead of
 * resending them as the days the date fields hold. The usage type only when it may change (§4).
 */
function changedFields(values: DetailsValues, initial: DetailsValues, canChangeUsage: boolean) {
  const body: Partial<DetailsValues> & { id: string } = { id: values.id };
  for (const field of editable) {
    if (field === 'usageType' && !canChangeUsage) continue;
    if (values[field] !== initial[field]) Object.assign(body, { [field]: values[field] });
  }
  return body;
}

function DetailsForm({ request, onDone }: { request: PaymentRequest; onDone: () => void }) {
  const update = useUpdatePaymentRequest();
  const form = useForm<DetailsValues>({
    mode: 'controlled',
    initialValues: {
      id: request.id,
      description: request.description ?? '',
      validFrom: dayOfIso(request.validFrom),
      validUntil: dayOfIso(request.validUntil),
      paymentRequiredBy: dayOfIso(request.paymentRequiredBy),
      usageType: shownUsage(request),
    },
    validate: (values) => resolver(values),
  });
  const submit = form.onSubmit((values) => {
    const body = updatePaymentRequestBody.parse(
      changedFields(values, form.getInitialValues(), request.canChangeUsage === true),
    );
    update.mutate(body, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: paymentRequestMessages.updated });
        onDone();
      },
      onError: (error) => {
        form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
        notifications.show({ color: 'red', message: failureMessage(failedUpdate, error) });
      },
    });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
        <Group grow align="flex-start">
          <CalendarDateInput
            label="Valid from"
            clearable
            popoverProps={{ withinPortal: false }}
            {...form.getInputProps('validFrom')}
          />
          <CalendarDateInput
            label="Valid to"
            clearable
            popoverProps={{ withinPortal: false }}
            {...form.getInputProps('validUntil')}
          />
        </Group>
        <CalendarDateInput
          label="Payment requested by"
          clearable
          popoverProps={{ withinPortal: false }}
          {...form.getInputProps('paymentRequiredBy')}
        />
        <Select
          label="Usage type"
          data={[...usageTypes]}
          allowDeselect={false}
          disabled={!request.canChangeUsage}
          description={
            request.canChangeUsage
              ? undefined
              : 'Changeable only while Open, of type Transaction, with Immediate capture and no payments yet.'
          }
          comboboxProps={{ withinPortal: false }}
          {...form.getInputProps('usageType')}
        />
        <DialogActions onCancel={onDone} loading={update.isPending} />
      </Stack>
    </form>
  );
}

/** spec 2 §5 Payment request edit. */
export function EditDetailsDialog({
  request,
  opened,
  onClose,
}: {
  request: PaymentRequest;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Edit payment request" centered>
      <DetailsForm request={request} onDone={onClose} />
    </Modal>
  );
}
