import {
  opayoErrorText,
  providerConnectionMessages,
  secretSentinel,
  tranSafeTestCredentials,
  type PaymentProviderTypeInfo,
} from '@ledgerline/contract';
import {
  Button,
  Group,
  PasswordInput,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlugConnected } from '@tabler/icons-react';
import { failureMessage } from '@/ui/form-errors';
import {
  useTestOpayoConnection,
  useTestOppwaConnection,
  useTestTranSafeConnection,
  useTestTrueLayerConnection,
  type OpayoCredentials,
} from '../api/connection-tests';
import type { ProviderFormValues } from './provider-form-values';

type Form = UseFormReturnType<ProviderFormValues>;

/** A secret: a stored one shows masked as the sentinel, which the server keeps when sent back. */
function SecretInput({
  form,
  path,
  label,
  disabled,
  required = true,
  description,
}: {
  form: Form;
  path: string;
  label: string;
  disabled?: boolean;
  required?: boolean;
  description?: string;
}) {
  const stored = form.getValues().credentials[path.split('.')[1]!] === secretSentinel;
  return (
    <PasswordInput
      label={label}
      required={required}
      disabled={disabled}
      description={stored ? 'Stored. Type a new value to replace it.' : description}
      onFocus={(event) => {
        if (event.currentTarget.value === secretSentinel) event.currentTarget.select();
      }}
      {...form.getInputProps(path)}
    />
  );
}

function ServerChoice({
  form,
  path,
  inverted = false,
}: {
  form: Form;
  path: string;
  inverted?: boolean;
}) {
  const [part, key] = path.split('.') as ['settings' | 'credentials', string];
  const test = form.getValues()[part][key] === true;
  return (
    <div>
      <Text size="sm" fw={500} mb={4}>
        Server
      </Text>
      <SegmentedControl
        data={[
          { value: 'live', label: 'Live' },
          { value: 'test', label: 'Test' },
        ]}
        value={test !== inverted ? 'test' : 'live'}
        onChange={(value) => form.setFieldValue(path, value === 'test')}
        aria-label="Server"
      />
    </div>
  );
}

/** The Opayo admin credentials of the form, as the test and IP registration calls take them. */
export function opayoCredentialsOf(
  values: ProviderFormValues,
  configurationId: string | null,
): OpayoCredentials {
  return {
    vendor: String(values.credentials.vendorName ?? ''),
    user: String(values.credentials.adminUser ?? ''),
    password: String(values.credentials.adminPassword ?? ''),
    useTestServer: values.settings.useTestServer === true,
    paymentProviderId: configurationId,
  };
}

/** spec 3 §8: a failure toasts with the vendor and the detail; success toasts a success message. */
function OpayoTestButton({
  form,
  configurationId,
}: {
  form: Form;
  configurationId: string | null;
}) {
  const test = useTestOpayoConnection();
  return (
    <Group>
      <Button
        variant="default"
        leftSection={<IconPlugConnected size={16} />}
        loading={test.isPending}
        onClick={() => {
          const credentials = opayoCredentialsOf(form.getValues(), configurationId);
          test.mutate(credentials, {
            onSuccess: (result) =>
              notifications.show(
                result.success
                  ? { color: 'green', message: providerConnectionMessages.connectionTested }
                  : {
                      color: 'red',
                      title: `Opayo vendor ${credentials.vendor}`,
                      message: opayoErrorText(result.errorCode, result.detail),
                    },
              ),
            onError: (error) => notifications.show({ color: 'red', message: failureMessage('', error) }),
          });
        }}
      >
        Test Connection
      </Button>
    </Group>
  );
}

function TranSafeTestButton({
  form,
  configurationId,
}: {
  form: Form;
  configurationId: string | null;
}) {
  const test = useTestTranSafeConnection();
  return (
    <Group>
      <Button
        variant="default"
        leftSection={<IconPlugConnected size={16} />}
        loading={test.isPending}
        onClick={() => {
          const values = form.getValues();
          test.mutate(
            {
              userName: String(values.credentials.userName ?? ''),
              password: String(values.credentials.password ?? ''),
              useTestServer: values.settings.useTestSite === true,
              paymentProviderId: configurationId,
            },
            {
              onSuccess: (result) =>
                notifications.show({
                  color: result.success ? 'green' : 'red',
                  message: result.message,
                }),
              // spec 3 §8: an HTTP failure is reported as a general error.
              onError: (error) =>
                notifications.show({ color: 'red', message: failureMessage('', error) }),
            },
          );
        }}
      >
        Test Connection
      </Button>
    </Group>
  );
}

/** TrueLayer and Total Processing: the form's credentials tested as they stand (a stored secret as the sentinel). */
function CredentialsTestButton({
  form,
  configurationId,
  kind,
}: {
  form: Form;
  configurationId: string | null;
  kind: 'TrueLayer' | 'Oppwa';
}) {
  const trueLayer = useTestTrueLayerConnection();
  const oppwa = useTestOppwaConnection();
  const pending = kind === 'TrueLayer' ? trueLayer.isPending : oppwa.isPending;
  const handlers = {
    onSuccess: (result: { success: boolean; message: string }) =>
      notifications.show({ color: result.success ? 'green' : 'red', message: result.message }),
    onError: (error: unknown) => notifications.show({ color: 'red', message: failureMessage('', error) }),
  };
  return (
    <Group>
      <Button
        variant="default"
        leftSection={<IconPlugConnected size={16} />}
        loading={pending}
        onClick={() => {
          const { credentials } = form.getValues();
          const useSandbox = credentials.useSandbox === true;
          if (kind === 'TrueLayer')
            trueLayer.mutate(
              {
                clientId: String(credentials.clientId ?? ''),
                clientSecret: String(credentials.clientSecret ?? ''),
                useSandbox,
                paymentProviderId: configurationId,
              },
              handlers,
            );
          else
            oppwa.mutate(
              {
                entityId: String(credentials.entityId ?? ''),
                accessToken: String(credentials.accessToken ?? ''),
                useSandbox,
                paymentProviderId: configurationId,
              },
              handlers,
            );
        }}
      >
        Test Connection
      </Button>
    </Group>
  );
}

/** spec 3 §2 the kind's connection fields on the General tab. */
export function CredentialFields({
  form,
  type,
  configurationId,
}: {
  form: Form;
  type: PaymentProviderTypeInfo;
  configurationId: string | null;
}) {
  const values = form.getValues();
  switch (type.providerName) {
    case 'TranSafe': {
      const test = values.settings.useTestSite === true;
      return (
        <Stack gap="md">
          <Switch
            label="Use test site"
            checked={test}
            onChange={(event) => {
              const on = event.currentTarget.checked;
              form.setFieldValue('settings.useTestSite', on);
              // spec 3 §4: the test switch sets the fixed placeholder credentials.
              form.setFieldValue(
                'credentials.userName',
                on ? tranSafeTestCredentials.userName : '',
              );
              form.setFieldValue(
                'credentials.password',
                on ? tranSafeTestCredentials.password : '',
              );
            }}
          />
          <TextInput
            label="User name"
            required={!test}
            disabled={test}
            {...form.getInputProps('credentials.userName')}
          />
          <SecretInput form={form} path="credentials.password" label="Password" disabled={test} />
          <TranSafeTestButton form={form} configurationId={configurationId} />
        </Stack>
      );
    }
    case 'Opayo': {
      const pi = values.settings.integrationType === 'Pi';
      return (
        <Stack gap="md">
          <ServerChoice form={form} path="settings.useTestServer" />
          <TextInput
            label="Vendor name"
            required
            {...form.getInputProps('credentials.vendorName')}
          />
          <TextInput label="Admin user" required {...form.getInputProps('credentials.adminUser')} />
          <SecretInput form={form} path="credentials.adminPassword" label="Admin password" />
          {pi && (
            <>
              <TextInput
                label="Integration key"
                required
                {...form.getInputProps('credentials.integrationKey')}
              />
              <SecretInput
                form={form}
                path="credentials.integrationPassword"
                label="Integration password"
              />
            </>
          )}
          <OpayoTestButton form={form} configurationId={configurationId} />
        </Stack>
      );
    }
    case 'TrueLayer':
      return (
        <Stack gap="md">
          <ServerChoice form={form} path="credentials.useSandbox" />
          <TextInput label="Client ID" required {...form.getInputProps('credentials.clientId')} />
          <SecretInput form={form} path="credentials.clientSecret" label="Client Secret" />
          <TextInput
            label="Signing key ID"
            description="The key's id in TrueLayer's console: refunds are requests signed with it."
            {...form.getInputProps('credentials.signingKeyId')}
          />
          <SecretInput
            form={form}
            path="credentials.signingPrivateKey"
            label="Signing private key"
            required={false}
            description="The EC P-521 private key in PEM (-----BEGIN PRIVATE KEY----- …) whose public key is registered with TrueLayer."
          />
          <TextInput
            label="Merchant account ID"
            description="Your TrueLayer merchant account (needs the signing key): payments go into it and can be refunded. Leave empty to pay into the bank details."
            {...form.getInputProps('settings.merchantAccountId')}
          />
          <CredentialsTestButton form={form} configurationId={configurationId} kind="TrueLayer" />
        </Stack>
      );
    case 'Oppwa':
      return (
        <Stack gap="md">
          <Switch
            label="Test mode"
            {...form.getInputProps('credentials.useSandbox', { type: 'checkbox' })}
          />
          <TextInput label="Entity ID" required {...form.getInputProps('credentials.entityId')} />
          <SecretInput form={form} path="credentials.accessToken" label="Access token" />
          <SecretInput
            form={form}
            path="credentials.webhookSecret"
            label="Webhook secret"
            required={false}
            description="The webhook's decryption key (64 hexadecimal characters): refunds and chargebacks are read from its notifications."
          />
          <CredentialsTestButton form={form} configurationId={configurationId} kind="Oppwa" />
        </Stack>
      );
    default:
      return null;
  }
}
