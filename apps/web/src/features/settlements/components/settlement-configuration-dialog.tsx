import {
  settlementDateTypeLabels,
  settlementDateTypes,
  type SettlementConfiguration,
} from '@ledgerline/contract';
import { Alert, Button, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useSaveSettlementConfiguration } from '../api/save-settlement-configuration';
import {
  configurationBodyOf,
  currencyOptions,
  initialConfigurationValues,
  unsupportedConfigurationMessage,
  validateConfiguration,
  type CreatableType,
  type SettlementConfigurationFormValues,
} from './settlement-configuration-form';
import { DialogActions } from '@/ui/dialog-actions';

interface FormProps {
  groupId: string;
  type: CreatableType;
  configuration?: SettlementConfiguration;
  onDone: () => void;
}

function ConfigurationForm({ groupId, type, configuration, onDone }: FormProps) {
  const save = useSaveSettlementConfiguration(groupId);
  const form = useForm<SettlementConfigurationFormValues>({
    mode: 'controlled',
    initialValues: initialConfigurationValues(type, configuration),
    validate: validateConfiguration,
  });
  const percentage = form.values.type === 'PercentageDiscount';

  const submit = form.onSubmit((values) => {
    const body = configurationBodyOf(values, configuration);
    save.mutate(configuration ? { ...body, id: configuration.id } : body, {
      onSuccess: () => {
        notifications.show({
          color: 'green',
          message: configuration
            ? 'Settlement configuration updated'
            : 'Settlement configuration added',
        });
        onDone();
      },
      onError: (error) => {
        form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
        notifications.show({
          color: 'red',
          message: failureMessage(
            'An error occurred while saving the settlement configuration: ',
            error,
          ),
        });
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Description" {...form.getInputProps('description')} />
        <Group grow align="flex-start">
          <NumberInput
            label="Number of Days"
            required
            min={0}
            allowDecimal={false}
            {...form.getInputProps('numberOfDays')}
          />
          <Select
            label="Date type"
            required
            allowDeselect={false}
            data={settlementDateTypes.map((value) => ({
              value,
              label: settlementDateTypeLabels[value],
            }))}
            {...form.getInputProps('dateType')}
          />
        </Group>
        {percentage ? (
          <NumberInput
            label="Percentage Discount"
            required
            min={0}
            max={100}
            decimalScale={4}
            suffix=" %"
            {...form.getInputProps('percentageDiscount')}
          />
        ) : (
          <NumberInput
            label="Amount"
            required
            min={0}
            decimalScale={4}
            {...form.getInputProps('amount')}
          />
        )}
        <Select
          label="Currency"
          description={
            percentage ? 'Empty applies to every currency' : 'The currency of the discount'
          }
          required={!percentage}
          data={currencyOptions}
          searchable
          clearable={percentage}
          clearButtonProps={{ 'aria-label': 'Clear currency' }}
          allowDeselect={percentage}
          nothingFoundMessage="No such currency"
          {...form.getInputProps('currency')}
          value={form.values.currency || null}
          onChange={(value) => form.setFieldValue('currency', value ?? '')}
        />
        <Select
          label="Transaction amount filter on"
          allowDeselect={false}
          data={[
            { value: 'TransactionAmount', label: 'Transaction amount' },
            { value: 'OutstandingAmount', label: 'Outstanding amount' },
          ]}
          {...form.getInputProps('amountType')}
        />
        <Group grow align="flex-start">
          <NumberInput
            label="Minimum transaction value"
            min={0}
            decimalScale={4}
            {...form.getInputProps('minimumTransactionValue')}
          />
          <NumberInput
            label="Maximum transaction value"
            min={0}
            decimalScale={4}
            {...form.getInputProps('maximumTransactionValue')}
          />
        </Group>
        <DialogActions onCancel={onDone} loading={save.isPending} />
      </Stack>
    </form>
  );
}

interface DialogProps extends Omit<FormProps, 'onDone'> {
  opened: boolean;
  onClose: () => void;
}

const kindLabels: Record<string, string> = {
  PercentageDiscount: 'Percentage Discount',
  AbsoluteDiscount: 'Absolute Discount',
  ReplacementAmount: 'Replacement Amount',
  None: 'Settlement Configuration',
};

/**
 * spec 3 §2, §4 the add and edit dialog of a settlement configuration. A type or date type the
 * dialog has no form for opens as an error, never as another type's form (which would save it as
 * that type).
 */
export function SettlementConfigurationDialog({ opened, onClose, ...props }: DialogProps) {
  const type = props.configuration?.type ?? props.type;
  const unsupported = unsupportedConfigurationMessage(props.configuration);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`${props.configuration ? 'Edit' : 'New'} ${kindLabels[type] ?? type}`}
      centered
    >
      {opened &&
        (unsupported ? (
          <Stack gap="md">
            <Alert color="red" role="alert">
              {unsupported}
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
            </Group>
          </Stack>
        ) : (
          <ConfigurationForm {...props} onDone={onClose} />
        ))}
    </Modal>
  );
}
