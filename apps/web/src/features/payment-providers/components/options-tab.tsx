import {
  cardBrandLabels,
  otherCardBrands,
  primaryCardBrands,
  type PaymentProviderName,
} from '@ledgerline/contract';
import { Checkbox, Group, Radio, Stack, Switch, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ProviderFormValues } from './provider-form-values';

type Form = UseFormReturnType<ProviderFormValues>;

function OpayoOptions({ form, opayoPi }: { form: Form; opayoPi: boolean }) {
  const chosen = form.getValues().settings.integrationType;
  // spec 3 §2: Pi only when its flag is on or it is already chosen.
  const offerPi = opayoPi || chosen === 'Pi';
  return (
    <Stack gap="md">
      <Radio.Group
        label="Integration type"
        required
        {...form.getInputProps('settings.integrationType')}
      >
        <Stack gap="xs" mt={4}>
          <Radio value="Server" label="Server (a hosted card page)" />
          {offerPi && <Radio value="Pi" label="Pi (an integrated form)" />}
        </Stack>
      </Radio.Group>
      <Radio.Group
        label="Vendor code generation"
        required
        {...form.getInputProps('settings.vendorTxCodeType')}
      >
        <Stack gap="xs" mt={4}>
          <Radio value="Guid" label="Random characters" />
          <Radio value="PaymentRequest" label="Payment request" />
        </Stack>
      </Radio.Group>
    </Stack>
  );
}

function CardProcessorOptions({ form }: { form: Form }) {
  const settings = form.getValues().settings;
  const storing = settings.storePayerPaymentMethod === true;
  return (
    <Stack gap="md">
      <Checkbox.Group label="Card brands" {...form.getInputProps('settings.brands')}>
        <Group gap="md" mt={4}>
          {primaryCardBrands.map((brand) => (
            <Checkbox key={brand} value={brand} label={cardBrandLabels[brand]} />
          ))}
        </Group>
        <Text size="xs" c="dimmed" mt="sm">
          These brands must first be enabled on your merchant account:
        </Text>
        <Group gap="md" mt={4}>
          {otherCardBrands.map((brand) => (
            <Checkbox key={brand} value={brand} label={cardBrandLabels[brand]} />
          ))}
        </Group>
      </Checkbox.Group>
      <Switch
        label="Store card details"
        checked={storing}
        onChange={(event) => {
          form.setFieldValue('settings.storePayerPaymentMethod', event.currentTarget.checked);
          if (!event.currentTarget.checked)
            form.setFieldValue('settings.saveCardOptionDefault', false);
        }}
      />
      <Switch
        label="Save card option on by default"
        disabled={!storing}
        {...form.getInputProps('settings.saveCardOptionDefault', { type: 'checkbox' })}
      />
    </Stack>
  );
}

function CardAccountLinkOptions({ form }: { form: Form }) {
  const settings = form.getValues().settings;
  const useCustomer = settings.useStripeCustomer === true;
  const storing = settings.storePayerPaymentMethod === true;
  return (
    <Stack gap="md">
      <Switch
        label="Use Stripe customer"
        checked={useCustomer}
        onChange={(event) => {
          const on = event.currentTarget.checked;
          form.setFieldValue('settings.useStripeCustomer', on);
          // spec 3 §2: store-card is forced off when use-customer turns off.
          if (!on) {
            form.setFieldValue('settings.storePayerPaymentMethod', false);
            form.setFieldValue('settings.saveCardOptionDefault', false);
          }
        }}
      />
      <Switch
        label="Store card details"
        disabled={!useCustomer}
        checked={storing}
        onChange={(event) => {
          form.setFieldValue('settings.storePayerPaymentMethod', event.currentTarget.checked);
          if (!event.currentTarget.checked)
            form.setFieldValue('settings.saveCardOptionDefault', false);
        }}
      />
      <Switch
        label="Save card option on by default"
        disabled={!storing}
        {...form.getInputProps('settings.saveCardOptionDefault', { type: 'checkbox' })}
      />
    </Stack>
  );
}

/** spec 3 §2 Options tab of the UK card provider, the card processor and the account link. */
export function OptionsTab({
  form,
  providerName,
  opayoPi,
}: {
  form: Form;
  providerName: PaymentProviderName;
  opayoPi: boolean;
}) {
  if (providerName === 'Opayo') return <OpayoOptions form={form} opayoPi={opayoPi} />;
  if (providerName === 'Oppwa') return <CardProcessorOptions form={form} />;
  if (providerName === 'Stripe') return <CardAccountLinkOptions form={form} />;
  return null;
}
