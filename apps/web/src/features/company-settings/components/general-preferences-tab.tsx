import { expiryHint, expiryQuantityMaximum, type Country } from '@ledgerline/contract';
import { Card, NumberInput, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { expiryUnits, usageTypes, type GeneralForm } from './preferences-form';

const unitLabels = { Day: 'Days', Week: 'Weeks', Month: 'Months', Year: 'Years' } as const;

/** spec 3 §2 Preferences › General: the general preferences and the payment request settings. */
export function GeneralPreferencesTab({
  form,
  countries,
  disabled,
}: {
  form: UseFormReturnType<GeneralForm>;
  countries: readonly Country[];
  disabled: boolean;
}) {
  return (
    <Stack>
      <Card withBorder>
        <Stack>
          <Select
            label="Default country"
            description="Offered first wherever a country is chosen"
            required
            searchable
            allowDeselect={false}
            data={countries.map((c) => ({ value: String(c.id), label: c.displayName }))}
            disabled={disabled}
            {...form.getInputProps('defaultCountryId')}
          />
          <Switch
            label="Payments can be edited"
            disabled={disabled}
            {...form.getInputProps('canEditPayments', { type: 'checkbox' })}
          />
          <Switch
            label="Allow transaction currency change"
            disabled={disabled}
            {...form.getInputProps('allowTransactionCurrencyChange', { type: 'checkbox' })}
          />
        </Stack>
      </Card>
      <PaymentRequestSettingsCard form={form} disabled={disabled} />
    </Stack>
  );
}

/** The payment request settings: link size and default expiry, and the default usage type. */
function PaymentRequestSettingsCard({
  form,
  disabled,
}: {
  form: UseFormReturnType<GeneralForm>;
  disabled: boolean;
}) {
  const { expiryUnit, expiryQuantity } = form.values;
  const quantity = typeof expiryQuantity === 'number' ? expiryQuantity : null;
  return (
    <Card withBorder>
      <Stack>
        <Title order={4}>Payment request settings</Title>
        <Select
          label="Link URL size"
          data={[{ value: 'Long', label: 'Long' }]}
          value="Long"
          disabled
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Default link expiry unit"
            allowDeselect={false}
            data={[
              { value: '', label: '-' },
              ...expiryUnits.map((unit) => ({ value: unit, label: unitLabels[unit] })),
            ]}
            disabled={disabled}
            {...form.getInputProps('expiryUnit')}
            onChange={(value) => {
              form.setFieldValue('expiryUnit', (value ?? '') as GeneralForm['expiryUnit']);
              // spec 3 §5: with no unit the quantity resets to 0.
              if (!value) form.setFieldValue('expiryQuantity', 0);
            }}
          />
          <NumberInput
            label="Default link expiry quantity"
            min={0}
            max={expiryUnit === '' ? undefined : expiryQuantityMaximum[expiryUnit]}
            allowDecimal={false}
            allowNegative={false}
            disabled={disabled || expiryUnit === ''}
            {...form.getInputProps('expiryQuantity')}
          />
        </SimpleGrid>
        <Text size="sm" c="dimmed" data-testid="expiry-hint">
          {expiryHint(expiryUnit === '' ? null : expiryUnit, quantity)}
        </Text>
        <Select
          label="Default usage type"
          required
          allowDeselect={false}
          data={usageTypes.map((usage) => ({ value: usage, label: usage }))}
          disabled={disabled}
          {...form.getInputProps('defaultUsageType')}
        />
      </Stack>
    </Card>
  );
}
