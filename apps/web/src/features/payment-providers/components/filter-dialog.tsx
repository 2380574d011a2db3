import {
  currencies,
  paymentProviderMessages as messages,
  type FilterGroup,
  type PaymentMethodConfiguration,
} from '@ledgerline/contract';
import { Button, Group, Modal, MultiSelect, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';

interface FilterValues {
  minimumPaymentValue: number | string;
  maximumPaymentValue: number | string;
  currencies: string[];
}

const currencyOptions = [...currencies]
  .sort((a, b) => b.priority - a.priority || a.code.localeCompare(b.code))
  .map((currency) => ({ value: currency.code, label: `${currency.code} ${currency.name}` }));

const amountOf = (value: number | string): number | null =>
  value === '' || value === null || Number.isNaN(Number(value)) ? null : Number(value);

/** The filters in force on a configuration (the dialog edits one group for all its methods). */
function valuesOf(configurations: readonly PaymentMethodConfiguration[]): FilterValues {
  const filters = configurations[0]?.filterGroup?.filterConfigurations ?? [];
  const amount = filters.find((filter) => filter.filterType === 'PaymentAmount');
  const currency = filters.find((filter) => filter.filterType === 'Currencies');
  return {
    minimumPaymentValue: amount?.minimumPaymentValue ?? '',
    maximumPaymentValue: amount?.maximumPaymentValue ?? '',
    currencies: currency?.currencies ?? [],
  };
}

export function filterGroupOf(values: FilterValues): FilterGroup | null {
  const minimumPaymentValue = amountOf(values.minimumPaymentValue);
  const maximumPaymentValue = amountOf(values.maximumPaymentValue);
  const filterConfigurations: FilterGroup['filterConfigurations'] = [];
  if (minimumPaymentValue !== null || maximumPaymentValue !== null) {
    filterConfigurations.push({
      filterType: 'PaymentAmount',
      isEnabled: true,
      minimumPaymentValue,
      maximumPaymentValue,
    });
  }
  if (values.currencies.length > 0) {
    filterConfigurations.push({
      filterType: 'Currencies',
      isEnabled: true,
      currencies: values.currencies,
    });
  }
  return filterConfigurations.length > 0 ? { filterConfigurations } : null;
}

/** spec 3 §2, §5 the item-filter dialog: minimum and maximum payment amount, currencies. */
export function FilterDialog({
  opened,
  configurations,
  onClose,
  onApply,
}: {
  opened: boolean;
  configurations: readonly PaymentMethodConfiguration[];
  onClose: () => void;
  onApply: (group: FilterGroup | null) => void;
}) {
  const form = useForm<FilterValues>({
    mode: 'controlled',
    initialValues: valuesOf(configurations),
    validate: {
      minimumPaymentValue: (value) =>
        amountOf(value) !== null && amountOf(value)! < 0 ? messages.minimumPaymentAmount : null,
      maximumPaymentValue: (value, values) => {
        const max = amountOf(value);
        const min = amountOf(values.minimumPaymentValue);
        if (max !== null && max < 0) return messages.maximumPaymentAmount;
        if (max !== null && min !== null && !(max > min)) return messages.maximumNotAboveMinimum;
        return null;
      },
    },
  });
  const submit = form.onSubmit((values) => {
    onApply(filterGroupOf(values));
    onClose();
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Item filters" centered>
      <form
        noValidate
        onSubmit={(event) => {
          // The dialog renders in a portal, but React bubbles its submit to the provider form.
          event.stopPropagation();
          submit(event);
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Offer this provider only for payments within these limits. Empty means no limit; no
            currency means every currency.
          </Text>
          <NumberInput
            label="Minimum payment amount"
            min={0}
            decimalScale={4}
            {...form.getInputProps('minimumPaymentValue')}
          />
          <NumberInput
            label="Maximum payment amount"
            min={0}
            decimalScale={4}
            {...form.getInputProps('maximumPaymentValue')}
          />
          <MultiSelect
            label="Currencies"
            data={currencyOptions}
            searchable
            clearable
            {...form.getInputProps('currencies')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Apply</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
