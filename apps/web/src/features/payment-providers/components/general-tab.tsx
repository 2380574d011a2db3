import {
  filterCountOf,
  paymentMethodGroupLabels,
  paymentProviderLimits as limits,
  paymentProviderMessages,
  type PaymentProviderTypeInfo,
} from '@ledgerline/contract';
import {
  Badge,
  Button,
  Group,
  NumberInput,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconFilter } from '@tabler/icons-react';
import { useState } from 'react';
import { useProviderNameTaken } from '../api/get-provider-name-taken';
import { CredentialFields } from './credential-fields';
import { GoCardlessCreditorCard } from './gocardless-creditor-card';
import { StripeAccountCard, StripeConnectButton } from './stripe-account-card';
import { FilterDialog } from './filter-dialog';
import type { ProviderFormValues } from './provider-form-values';

/** spec 3 §2 General tab: the common section, item filters, supported methods, the kind's credentials. */
export function GeneralTab({
  form,
  type,
  configurationId,
  stored,
}: {
  form: UseFormReturnType<ProviderFormValues>;
  type: PaymentProviderTypeInfo;
  /** The saved configuration's id; none while adding. */
  configurationId: string | null;
  /** The saved credentials as last read: a connection flow changes them outside the form. */
  stored: Record<string, unknown> | null;
}) {
  const [filtering, setFiltering] = useState(false);
  // spec 3 §5: whether the name exists is looked up as it is typed, not only when saving.
  const nameTaken = useProviderNameTaken(form.values.name, configurationId);
  const nameInput = form.getInputProps('name');
  const configurations = form.getValues().paymentMethodConfigurations;
  const filterCount = filterCountOf(configurations);
  const currencies = [
    ...new Set(type.paymentMethodTypesInfo.flatMap((info) => info.supportedCurrencies)),
  ];
  return (
    <Stack gap="md" maw={720}>
      <TextInput
        label="Name"
        required
        maxLength={limits.name.max}
        {...nameInput}
        error={nameInput.error ?? (nameTaken ? paymentProviderMessages.nameExists : undefined)}
      />
      <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        maxLength={limits.description.max}
        {...form.getInputProps('description')}
      />
      <NumberInput
        label="Display priority"
        required
        min={limits.displayPriority.min}
        max={limits.displayPriority.max}
        allowDecimal={false}
        {...form.getInputProps('displayPriority')}
      />
      <CredentialFields form={form} type={type} configurationId={configurationId} />
      {type.providerName === 'Stripe' &&
        (configurationId ? (
          <StripeAccountCard
            configurationId={configurationId}
            stripeAccountId={(stored?.stripeAccountId as string | null | undefined) ?? null}
          />
        ) : (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              Connecting with Stripe adds a configuration named after your Stripe account; saving
              this form adds one to connect later.
            </Text>
            <Group>
              <StripeConnectButton configurationId={null} />
            </Group>
          </Stack>
        ))}
      {type.providerName === 'GoCardless' && configurationId && (
        <GoCardlessCreditorCard configurationId={configurationId} />
      )}
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconFilter size={16} />}
          onClick={() => setFiltering(true)}
        >
          Item filters{filterCount > 0 ? ` (${filterCount})` : ''}
        </Button>
      </Group>
      <div>
        <Text size="sm" fw={500}>
          Supported payment methods
        </Text>
        <Group gap={4} mt={4}>
          {type.supportedPaymentMethodGroups.map((group) => (
            <Badge key={group} variant="outline">
              {paymentMethodGroupLabels[group]}
            </Badge>
          ))}
        </Group>
      </div>
      <div>
        <Text size="sm" fw={500}>
          Supported currencies
        </Text>
        <Text size="sm" c="dimmed">
          {currencies.join(', ')}
        </Text>
      </div>
      {filtering && (
        <FilterDialog
          opened
          configurations={configurations}
          onClose={() => setFiltering(false)}
          onApply={(group) =>
            form.setFieldValue(
              'paymentMethodConfigurations',
              configurations.map((configuration) => ({ ...configuration, filterGroup: group })),
            )
          }
        />
      )}
    </Stack>
  );
}
