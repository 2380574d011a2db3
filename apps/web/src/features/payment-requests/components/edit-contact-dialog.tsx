import {
  addressFieldLabels,
  addressFields,
  contactEditSchema,
  paymentRequestMessages,
  type AddressField,
  type Contact,
  type PaymentRequest,
} from '@ledgerline/contract';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useDefaultCountryIn } from '@/lib/api/default-country';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useUpdatePaymentRequest } from '../api/update-payment-request';
import { failedUpdate } from './request-texts';
import { DialogActions } from '@/ui/dialog-actions';

export type ContactKind = 'billingContact' | 'deliveryContact';
const addressLabels: Record<AddressField, string> = { ...addressFieldLabels, type: 'Type' };

type ContactValues = {
  companyName: string;
  firstNames: string;
  surname: string;
  emailAddress: string;
  address: Record<AddressField, string>;
};
const resolver = zod4Resolver(contactEditSchema);

function valuesOf(contact: Contact | null): ContactValues {
  return {
    companyName: contact?.companyName ?? '',
    firstNames: contact?.firstNames ?? '',
    surname: contact?.surname ?? '',
    emailAddress: contact?.emailAddress ?? '',
    address: Object.fromEntries(
      addressFields.map((field) => [field, contact?.address?.[field] ?? '']),
    ) as ContactValues['address'],
  };
}

function ContactForm({
  request,
  kind,
  onDone,
}: {
  request: PaymentRequest;
  kind: ContactKind;
  onDone: () => void;
}) {
  const update = useUpdatePaymentRequest();
  const form = useForm<ContactValues>({
    mode: 'controlled',
    initialValues: valuesOf(request[kind]),
    validate: (values) => resolver(values),
  });
  // A contact without a country starts at the company's default country.
  useDefaultCountryIn(form, 'address.country');
  const submit = form.onSubmit((values) => {
    update.mutate(
      { id: request.id, [kind]: contactEditSchema.parse(values) },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: paymentRequestMessages.updated });
          onDone();
        },
        onError: (error) => {
          form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
          notifications.show({ color: 'red', message: failureMessage(failedUpdate, error) });
        },
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Company name" {...form.getInputProps('companyName')} />
        <SimpleGrid cols={2}>
          <TextInput label="First names" {...form.getInputProps('firstNames')} />
          <TextInput label="Surname" {...form.getInputProps('surname')} />
        </SimpleGrid>
        <TextInput label="Email address" {...form.getInputProps('emailAddress')} />
        <SimpleGrid cols={2}>
          {addressFields.map((field) => (
            <TextInput
              key={field}
              label={addressLabels[field]}
              {...form.getInputProps(`address.${field}`)}
            />
          ))}
        </SimpleGrid>
        <DialogActions onCancel={onDone} loading={update.isPending} />
      </Stack>
    </form>
  );
}

/** spec 2 §5 Contact edit: every field optional; only while the request is Open. */
export function EditContactDialog({
  request,
  kind,
  opened,
  onClose,
}: {
  request: PaymentRequest;
  kind: ContactKind;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={kind === 'billingContact' ? 'Edit billing contact' : 'Edit delivery contact'}
      centered
      size="lg"
    >
      <ContactForm request={request} kind={kind} onDone={onClose} />
    </Modal>
  );
}
