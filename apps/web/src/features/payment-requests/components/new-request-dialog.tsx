import {
  createTransactionRequestBody,
  currencyAliases,
  currencyDecimalPlaces,
  newRequestCurrencies,
  newRequestDefaults,
  paymentRequestMessages,
  type CreateTransactionRequestBody,
  type PaymentRequest,
} from '@ledgerline/contract';
import { useState } from 'react';
import {
  Alert,
  Group,
  Modal,
  NumberInput,
  Select,
  Skeleton,
  Stack,
  TextInput,
} from '@mantine/core';
import { CalendarDateInput } from '@/ui/calendar-date-input';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { addDays, format } from 'date-fns';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { LinkExpiryHint } from '@/ui/link-expiry-hint';
import { useCreatePaymentRequest } from '../api/create-payment-request';
import { useDialogAccounts, type DialogAccount } from '../api/get-dialog-accounts';
import { AccountPicker } from './account-picker';
import { CreatedRequestPanel } from './created-request-panel';
import { DialogActions } from '@/ui/dialog-actions';

type NewRequestValues = {
  requestType: 'Transaction';
  accountId: string | null;
  currency: string;
  amount: number | string;
  transactionDate: string | null;
  dueDate: string | null;
  description: string;
  paymentTerms: string;
};

const resolver = zod4Resolver(createTransactionRequestBody);
const day = (date: Date) => format(date, 'yyyy-MM-dd');

/** An empty field is a missing one, so it reads 'is required' rather than 'must be a number'. */
function toBody(values: NewRequestValues) {
  return {
    ...values,
    accountId: values.accountId ?? undefined,
    amount: values.amount === '' ? undefined : values.amount,
    transactionDate: values.transactionDate ?? undefined,
    dueDate: values.dueDate ?? undefined,
  };
}

/** spec 2 §2 New Request dialog defaults: first account, first currency, 100.00, today and 30 days later. */
export function newRequestInitialValues(
  accounts: readonly DialogAccount[],
  today: Date,
): NewRequestValues {
  return {
    requestType: 'Transaction',
    accountId: accounts[0]?.id ?? null,
    currency: newRequestCurrencies[0],
    amount: newRequestDefaults.amount,
    transactionDate: day(today),
    dueDate: day(addDays(today, newRequestDefaults.dueInDays)),
    description: newRequestDefaults.description,
    paymentTerms: newRequestDefaults.paymentTerms,
  };
}

function NewRequestForm({
  accounts,
  onCreated,
  onDone,
}: {
  accounts: readonly DialogAccount[];
  onCreated: (request: PaymentRequest) => void;
  onDone: () => void;
}) {
  const create = useCreatePaymentRequest();
  const form = useForm<NewRequestValues>({
    mode: 'controlled',
    initialValues: newRequestInitialValues(accounts, new Date()),
    validate: (values) => resolver(toBody(values) as unknown as NewRequestValues),
  });

  const submit = form.onSubmit((values) => {
    // spec 2 §2: text values are trimmed before sending (the contract trims them).
    const body: CreateTransactionRequestBody = createTransactionRequestBody.parse(toBody(values));
    create.mutate(body, {
      onSuccess: (created) => {
        notifications.show({ color: 'green', message: paymentRequestMessages.created });
        onCreated(created);
      },
      onError: (error) => {
        form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
        notifications.show({
          color: 'red',
          message: failureMessage('An error occurred while creating the payment request: ', error),
        });
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AccountPicker initial={accounts} {...form.getInputProps('accountId')} />
        <Select
          label="Currency"
          required
          allowDeselect={false}
          data={[...newRequestCurrencies]}
          comboboxProps={{ withinPortal: false }}
          {...form.getInputProps('currency')}
        />
        {/* The chosen currency's minor units (YEN is JPY: none). */}
        <NumberInput
          label="Amount"
          required
          decimalScale={currencyDecimalPlaces(
            currencyAliases[form.values.currency] ?? form.values.currency,
          )}
          fixedDecimalScale
          min={0}
          {...form.getInputProps('amount')}
        />
        <Group grow align="flex-start">
          <CalendarDateInput
            label="Transaction date"
            required
            popoverProps={{ withinPortal: false }}
            {...form.getInputProps('transactionDate')}
          />
          <CalendarDateInput
            label="Due date"
            required
            popoverProps={{ withinPortal: false }}
            {...form.getInputProps('dueDate')}
          />
        </Group>
        <TextInput label="Description" {...form.getInputProps('description')} />
        <TextInput label="Payment terms" {...form.getInputProps('paymentTerms')} />
        <LinkExpiryHint />
        <DialogActions onCancel={onDone} loading={create.isPending} submitLabel="Create" />
      </Stack>
    </form>
  );
}

/** spec 2 §2: the New Request dialog of the payment requests list. */
export function NewRequestDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const accounts = useDialogAccounts(opened);
  const [created, setCreated] = useState<PaymentRequest | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? 'Payment request created' : 'New Request'}
      centered
    >
      {created ? (
        <CreatedRequestPanel request={created} onDone={close} />
      ) : accounts.isPending ? (
        <Skeleton height={320} aria-label="Loading the accounts" />
      ) : accounts.isError ? (
        <Alert color="red">Loading Error</Alert>
      ) : (
        <NewRequestForm accounts={accounts.data.items} onCreated={setCreated} onDone={close} />
      )}
    </Modal>
  );
}
