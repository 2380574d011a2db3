import {
  customHostIdFields,
  type CustomHostIdField,
  type CustomHostIdSetting,
} from '@ledgerline/contract';
import {
  Alert,
  Button,
  Card,
  Code,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
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

const optionsHelp =
  'Create if empty: only when your ERP sent none. Always create: replaces the id your ERP sent. Never create: keeps what your ERP sent.';

/** Each field in a merchant's words. */
const fieldMeanings: Record<CustomHostIdField, string> = {
  transactionReference: 'The transaction’s reference',
  transactionSecondReference: 'Its second reference',
  orderReference: 'The order reference',
  transactionType: 'Invoice, credit note, …',
  currency: 'The currency code',
  postingApplication: 'The system that posted it',
  accountReference: 'The account’s reference',
};

const exampleParseValue = '{accountReference}-{transactionReference}';

/** The example transaction a test parse runs on, and the explanation's example. */
const exampleTransaction: Record<CustomHostIdField, string> = {
  transactionReference: 'INV-10042',
  transactionSecondReference: ' PO-7781 ',
  orderReference: 'SO-5510',
  transactionType: 'Invoice',
  currency: 'GBP',
  postingApplication: 'Sage 200',
  accountReference: 'ACME001',
};

/**
 * What a custom host id is and how the parse value makes one, with a worked example:
 * a merchant should not need the documentation to fill the section in.
 */
function CustomHostIdHelp() {
  const exampleResult = `${exampleTransaction.accountReference}-${exampleTransaction.transactionReference}`;
  return (
    <Stack gap="xs">
      <Text size="sm">
        A custom host id is your own id for each accounting transaction, made from the
        transaction&apos;s references, so that your ERP, bank statements and reports can find it by
        an id you recognise. Ledgerline writes it as the parse value says: each field name in braces
        is replaced by that field of the transaction; other text is kept as it is (write{' '}
        <Code>{'{{'}</Code> and <Code>{'}}'}</Code> for a brace itself).
      </Text>
      <Paper withBorder p="sm" role="note" aria-label="Custom host id example">
        <Text size="sm" fw={600}>
          Example
        </Text>
        <Text size="sm">
          With the parse value <Code>{exampleParseValue}</Code>, invoice{' '}
          {exampleTransaction.transactionReference} of account {exampleTransaction.accountReference}{' '}
          gets the custom host id <Code>{exampleResult}</Code>.
        </Text>
      </Paper>
      <Table fz="sm" withTableBorder aria-label="Custom host id fields">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>What it holds</Table.Th>
            <Table.Th>In the example</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {customHostIdFields.map((field) => (
            <Table.Tr key={field}>
              <Table.Td>
                <Code>{`{${field}}`}</Code>
              </Table.Td>
              <Table.Td>{fieldMeanings[field]}</Table.Td>
              <Table.Td>{exampleTransaction[field]}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

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
        <CustomHostIdHelp />
        <Group grow align="flex-start">
          <Select
            label="When a transaction is created"
            description={optionsHelp}
            allowDeselect={false}
            data={customHostIdOptions.map((value) => ({ value, label: optionLabels[value] }))}
            disabled={disabled}
            {...form.getInputProps('createOption')}
          />
          <Select
            label="When a transaction is updated"
            description={optionsHelp}
            allowDeselect={false}
            data={customHostIdOptions.map((value) => ({ value, label: optionLabels[value] }))}
            disabled={disabled}
            {...form.getInputProps('updateOption')}
          />
        </Group>
        <Switch
          label="Trim white space"
          description={`Removes spaces before and after the id: '${exampleTransaction.transactionSecondReference}' becomes '${exampleTransaction.transactionSecondReference.trim()}'.`}
          disabled={disabled}
          {...form.getInputProps('trimWhiteSpace', { type: 'checkbox' })}
        />
        <TextInput
          label="Parse value"
          description="Text with field names in braces, as in the example above."
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
