import { customHostIdFields, type CustomHostIdSetting } from '@ledgerline/contract';
import {
  Alert,
  Button,
  Card,
  Code,
  Group,
  Loader,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconRefresh, IconTestPipe } from '@tabler/icons-react';
import { isApiError } from '@/lib/http';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import {
  isRebuildBusy,
  useRebuildCustomHostIds,
  useTestCustomHostIdParse,
} from '../api/custom-host-id';
import { customHostIdOptions, type AdvancedForm } from './preferences-form';

const optionLabels = {
  CreateIfNull: 'Create if empty',
  AlwaysCreate: 'Always create',
  NeverCreate: 'Never create',
} as const;

/** The example transaction a test parse runs on. */
const exampleTransaction = {
  transactionReference: 'INV-10042',
  transactionSecondReference: ' PO-7781 ',
  orderReference: 'SO-5510',
  transactionType: 'Invoice',
  currency: 'GBP',
  postingApplication: 'Sage 200',
  accountReference: 'ACME001',
};

/**
 * spec 3 §2 Preferences › Advanced: the custom host id section. The test parse shows the
 * server's message on the parse value, or the example's result; Rebuild reads 'building' with a
 * spinner while the rebuild is queued or running.
 */
export function CustomHostIdSection({
  form,
  setting,
  disabled,
}: {
  form: UseFormReturnType<AdvancedForm>;
  setting: CustomHostIdSetting;
  disabled: boolean;
}) {
  const testParse = useTestCustomHostIdParse();
  const rebuild = useRebuildCustomHostIds();
  const busy = isRebuildBusy(setting) || rebuild.isPending;

  const runTest = () => {
    const { parseValue, trimWhiteSpace } = form.values;
    const problem = form.validateField('parseValue');
    if (problem.hasError) return;
    testParse.mutate(
      { parseValue, trimWhiteSpace, transaction: exampleTransaction },
      {
        onError: (error) => {
          const message = problemFieldErrors(error).parseValue;
          if (message) form.setFieldError('parseValue', message);
          else
            notifications.show({
              color: 'red',
              message: failureMessage('An error occurred while testing the parse value: ', error),
            });
        },
      },
    );
  };

  const startRebuild = () =>
    confirmDestructive({
      title: 'Rebuild custom host ids',
      message:
        'Every accounting transaction of this company gets the custom host id the saved parse value gives it, replacing ids your ERP pushed.',
      confirmLabel: 'Rebuild',
      onConfirm: () =>
        rebuild.mutate(undefined, {
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage(
                'An error occurred while starting the rebuild: ',
                isApiError(error) ? (problemFieldErrors(error).parseValue ?? error) : error,
              ),
            }),
        }),
    });

  return (
    <Card withBorder>
      <Stack>
        <Title order={4}>Custom host id</Title>
        <Text size="sm" c="dimmed">
          A custom host id is made for each accounting transaction from the parse value: text with
          fields in braces, for example <Code>{'{accountReference}-{transactionReference}'}</Code>.
          Fields: {customHostIdFields.join(', ')}.
        </Text>
        <Group grow align="flex-start">
          <Select
            label="When a transaction is created"
            allowDeselect={false}
            data={customHostIdOptions.map((value) => ({ value, label: optionLabels[value] }))}
            disabled={disabled}
            {...form.getInputProps('createOption')}
          />
          <Select
            label="When a transaction is updated"
            allowDeselect={false}
            data={customHostIdOptions.map((value) => ({ value, label: optionLabels[value] }))}
            disabled={disabled}
            {...form.getInputProps('updateOption')}
          />
        </Group>
        <Switch
          label="Trim white space"
          disabled={disabled}
          {...form.getInputProps('trimWhiteSpace', { type: 'checkbox' })}
        />
        <TextInput
          label="Parse value"
          required
          disabled={disabled}
          {...form.getInputProps('parseValue')}
          onChange={(event) => {
            form.setFieldValue('parseValue', event.currentTarget.value);
            testParse.reset();
          }}
        />
        {testParse.data && (
          <Alert color="blue" title="Example result">
            {testParse.data.customHostId === null ? (
              'Nothing is left: the custom host id would be empty.'
            ) : (
              <Code>{testParse.data.customHostId}</Code>
            )}
            <Text size="xs" c="dimmed" mt={4}>
              For the transaction {exampleTransaction.transactionReference} of account{' '}
              {exampleTransaction.accountReference}.
            </Text>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            variant="default"
            leftSection={<IconTestPipe size={16} />}
            loading={testParse.isPending}
            onClick={runTest}
          >
            Test parse
          </Button>
          <Button
            variant="default"
            leftSection={busy ? <Loader size="xs" /> : <IconRefresh size={16} />}
            disabled={disabled || busy}
            onClick={startRebuild}
          >
            {busy ? 'building' : 'Rebuild'}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
