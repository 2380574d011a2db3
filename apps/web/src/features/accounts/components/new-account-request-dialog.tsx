import {
  addExpiry,
  type PaymentRequestSettings,
  captureTypes,
  createAccountRequestBody,
  currencyAliases,
  currencyDecimalPlaces,
  newRequestCurrencies,
  newRequestDefaults,
  paymentRequestMessages,
  type Account,
} from '@ledgerline/contract';
import {
  Divider,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useEffect, useRef } from 'react';
import { CalendarDateInput } from '@/ui/calendar-date-input';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useDefaultCountryIn } from '@/lib/api/default-country';
import { useDatasetsAll } from '@/lib/api/get-datasets-all';
import { usePaymentRequestDefaults } from '@/lib/api/payment-request-settings';
import { useCompanyId } from '@/lib/company';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useCreateAccountPaymentRequest } from '../api/create-account-payment-request';
import { DialogActions } from '@/ui/dialog-actions';

const billingFields = ['companyName', 'firstNames', 'surname', 'emailAddress'] as const;
const addressFields = ['address1', 'address2', 'city', 'state', 'postCode', 'country'] as const;
const labels: Record<(typeof billingFields)[number] | (typeof addressFields)[number], string> = {
  companyName: 'Company name',
  firstNames: 'First name',
  surname: 'Last name',
  emailAddress: 'Email',
  address1: 'Address 1',
  address2: 'Address 2',
  city: 'City',
  state: 'State',
  postCode: 'Post code',
  country: 'Country',
};

type AccountRequestValues = {
  requestType: 'Account';
  accountId: string;
  captureType: string | null;
  currency: string;
  amountToPay: number | string;
  customerName: string;
  customerReference: string;
  description: string;
  validFrom: string | null;
  validUntil: string | null;
  paymentRequiredBy: string | null;
  billingContact: Record<(typeof billingFields)[number], string> & {
    address: Record<(typeof addressFields)[number], string>;
  };
  test: false;
};

const resolver = zod4Resolver(createAccountRequestBody);

/** The dialog's code for a stored currency (JPY is offered as YEN), when the dialog offers it. */
function offeredCurrency(code: string | null | undefined): string | undefined {
  if (!code) return undefined;
  const offered =
    Object.entries(currencyAliases).find(([, stored]) => stored === code)?.[0] ?? code;
  return (newRequestCurrencies as readonly string[]).includes(offered) ? offered : undefined;
}

/**
 * spec 2 §2: from an account page the company name defaults to the account name, and the currency to
 * the account's currency, else the company's, else the first in the list.
 */
export function accountRequestInitialValues(
  account: Account,
  companyCurrency: string | undefined,
): AccountRequestValues {
  const defaultEmail =
    account.emailAddresses.find((address) => address.isDefault)?.emailAddress ?? '';
  return {
    requestType: 'Account',
    accountId: account.id,
    captureType: captureTypes[0],
    currency:
      offeredCurrency(account.currency) ??
      offeredCurrency(companyCurrency) ??
      newRequestCurrencies[0],
    amountToPay: newRequestDefaults.amount,
    customerName: account.name,
    customerReference: account.accountReference,
    description: newRequestDefaults.description,
    validFrom: null,
    validUntil: null,
    paymentRequiredBy: null,
    billingContact: {
      companyName: account.name,
      firstNames: '',
      surname: '',
      emailAddress: defaultEmail,
      address: { address1: '', address2: '', city: '', state: '', postCode: '', country: '' },
    },
    test: false,
  };
}

/** An empty amount is a missing one, so it reads 'is required' rather than 'must be a number'. */
const toBody = (values: AccountRequestValues) => ({
  ...values,
  captureType: values.captureType ?? undefined,
  amountToPay: values.amountToPay === '' ? undefined : values.amountToPay,
});

/** The day a link made now stops working by the company's default expiry ('yyyy-MM-dd'), or null. */
function defaultValidUntilDay(settings: PaymentRequestSettings | null, now: Date): string | null {
  const until = addExpiry(now, settings?.validUntilAddition ?? null);
  if (!until) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${until.getFullYear()}-${pad(until.getMonth() + 1)}-${pad(until.getDate())}`;
}

type FormProps = {
  account: Account;
  companyCurrency: string | undefined;
  onDone: () => void;
  onCreated?: () => void;
};

function AccountRequestForm({ account, companyCurrency, onDone, onCreated }: FormProps) {
  const create = useCreateAccountPaymentRequest(account.id);
  const form = useForm<AccountRequestValues>({
    mode: 'controlled',
    initialValues: accountRequestInitialValues(account, companyCurrency),
    validate: (values) => resolver(toBody(values) as unknown as AccountRequestValues),
  });
  // The billing contact's country starts at the company's default country.
  useDefaultCountryIn(form, 'billingContact.address.country');
  // spec 3 §2: Valid to starts at the company's default link expiry (Preferences); clearing it
  // asks for a link that does not expire.
  const defaultValidUntil = defaultValidUntilDay(usePaymentRequestDefaults(), new Date());
  const defaultApplied = useRef(false);
  const { isTouched, setFieldValue } = form;
  useEffect(() => {
    if (!defaultValidUntil || defaultApplied.current) return;
    defaultApplied.current = true;
    if (!isTouched('validUntil')) setFieldValue('validUntil', defaultValidUntil);
  }, [defaultValidUntil, isTouched, setFieldValue]);

  const submit = form.onSubmit((values) => {
    // spec 2 §2: text values are trimmed before sending (the contract trims them, empty becomes null).
    const body = createAccountRequestBody.parse(toBody(values));
    create.mutate(body, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: paymentRequestMessages.created });
        onDone();
        onCreated?.();
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

  const dateProps = {
    clearable: true,
    popoverProps: { withinPortal: false },
  } as const;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label="Capture type"
            required
            allowDeselect={false}
            data={[...captureTypes]}
            comboboxProps={{ withinPortal: false }}
            {...form.getInputProps('captureType')}
          />
          <Select
            label="Currency"
            required
            allowDeselect={false}
            data={[...newRequestCurrencies]}
            comboboxProps={{ withinPortal: false }}
            {...form.getInputProps('currency')}
          />
          <NumberInput
            label="Amount"
            required
            // The chosen currency's minor units (YEN is JPY: none).
            decimalScale={currencyDecimalPlaces(
              currencyAliases[form.values.currency] ?? form.values.currency,
            )}
            fixedDecimalScale
            min={0}
            {...form.getInputProps('amountToPay')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Customer name" {...form.getInputProps('customerName')} />
          <TextInput label="Customer reference" {...form.getInputProps('customerReference')} />
        </SimpleGrid>
        <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <CalendarDateInput
            label="Valid from"
            {...dateProps}
            {...form.getInputProps('validFrom')}
          />
          <CalendarDateInput
            label="Valid to"
            {...dateProps}
            {...form.getInputProps('validUntil')}
          />
          <CalendarDateInput
            label="Payment requested by"
            {...dateProps}
            {...form.getInputProps('paymentRequiredBy')}
          />
        </SimpleGrid>
        <Divider label="Billing contact" labelPosition="left" />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {billingFields.map((field) => (
            <TextInput
              key={field}
              label={labels[field]}
              {...form.getInputProps(`billingContact.${field}`)}
            />
          ))}
          {addressFields.map((field) => (
            <TextInput
              key={field}
              label={labels[field]}
              {...form.getInputProps(`billingContact.address.${field}`)}
            />
          ))}
        </SimpleGrid>
        <DialogActions onCancel={onDone} loading={create.isPending} submitLabel="Create" />
      </Stack>
    </form>
  );
}

/** spec 2 §2: the New Request dialog opened from an account page (requestType Account). */
type DialogProps = {
  account: Account;
  opened: boolean;
  onClose: () => void;
  onCreated?: () => void;
};

export function NewAccountRequestDialog({ account, opened, onClose, onCreated }: DialogProps) {
  const companyId = useCompanyId();
  const companies = useDatasetsAll();
  const companyCurrency = companies.data?.find((company) => company.id === companyId)?.currency;
  return (
    <Modal opened={opened} onClose={onClose} title="New Request" centered size="xl">
      <Text size="sm" c="dimmed" mb="md">
        A payment request for {account.accountReference} – {account.name}.
      </Text>
      {/* Mounted per opening, so the defaults (and the company's currency once read) are fresh. */}
      {opened && !companies.isPending ? (
        <AccountRequestForm
          account={account}
          companyCurrency={companyCurrency}
          onDone={onClose}
          onCreated={onCreated}
        />
      ) : null}
    </Modal>
  );
}
