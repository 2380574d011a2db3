import {
  createPaymentProviderBody,
  paymentProviderMessages as messages,
  type PaymentProvider,
  type PaymentProviderTypeInfo,
} from '@ledgerline/contract';
import { Anchor, Breadcrumbs, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { isFlagOn, useFeatureFlags } from '@/lib/feature-flags';
import { isApiError } from '@/lib/http';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useCreatePaymentProvider } from '../api/create-payment-provider';
import { useUpdatePaymentProvider } from '../api/update-payment-provider';
import { BankDetailsTab } from './bank-details-tab';
import { GeneralTab } from './general-tab';
import { OptionsTab } from './options-tab';
import { ProviderDataButton } from './provider-data-dialog';
import {
  bodyOf,
  editProviderValues,
  newProviderValues,
  providerTabs,
  tabLabels,
  tabOfField,
  type ProviderFormValues,
  type ProviderTab,
} from './provider-form-values';
import { DialogActions } from '@/ui/dialog-actions';

export const providersPath = '/settings/payment-providers';
const resolver = zod4Resolver(createPaymentProviderBody);

/** The first field of a set of errors, in the order the server or the schema gave them. */
const firstField = (errors: Record<string, unknown>) => Object.keys(errors)[0];

/** spec 3 §2 provider forms: header, the kind's tabs, a save bar; back to the list after a save. */
export function ProviderForm({
  type,
  provider,
}: {
  type: PaymentProviderTypeInfo;
  provider?: PaymentProvider;
}) {
  const flags = useFeatureFlags();
  const opayoPi = isFlagOn(flags, 'OpayoPi');
  const navigate = useNavigate();
  const providerName = type.providerName;
  const tabs = providerTabs[providerName];
  const [tab, setTab] = useState<ProviderTab>('general');
  const form = useForm<ProviderFormValues>({
    mode: 'controlled',
    initialValues: provider
      ? editProviderValues(provider)
      : newProviderValues(providerName, { opayoPi }),
    validate: (values) => resolver(bodyOf(providerName, values)),
  });
  const create = useCreatePaymentProvider();
  const update = useUpdatePaymentProvider();

  const showTabOf = (errors: Record<string, unknown>) => {
    const field = firstField(errors);
    if (field) setTab(tabOfField(providerName, field));
  };

  const fail = (prefix: string) => (error: Error) => {
    // spec 3 §4, §8: an Opayo Server save registers the IP address first (the server does it) and
    // stops when that fails; the toast says why.
    if (isApiError(error) && error.errorCode === 'OpayoIpNotRegistered') {
      notifications.show({
        color: 'red',
        title: 'IP address not registered',
        message: error.message,
      });
      return;
    }
    const fieldErrors = problemFieldErrors(error, { fields: form.getValues() });
    if (Object.keys(fieldErrors).length > 0) {
      form.setErrors(fieldErrors);
      showTabOf(fieldErrors);
    }
    notifications.show({ color: 'red', message: failureMessage(prefix, error) });
  };

  const done = (message: string) => () => {
    notifications.show({ color: 'green', message });
    void navigate(providersPath);
  };

  const save = (values: ProviderFormValues) => {
    const body = bodyOf(providerName, values);
    if (provider) {
      update.mutate(
        { ...body, id: provider.id },
        { onSuccess: done(messages.updated), onError: fail(messages.updateFailed) },
      );
    } else {
      create.mutate(body, { onSuccess: done(messages.added), onError: fail(messages.addFailed) });
    }
  };

  const submit = form.onSubmit(save, (errors) => showTabOf(errors));

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        {/* spec 2 §2: the payment providers breadcrumb, as the detail pages of the other areas. */}
        <Breadcrumbs>
          <Anchor component={Link} to={providersPath}>
            Payment Providers
          </Anchor>
          <Text span>{provider ? provider.name : `New ${type.displayName} Provider`}</Text>
        </Breadcrumbs>
        <Group justify="space-between">
          <Title order={1} size="h2">
            {provider ? `Edit ${type.displayName} Provider` : `Add ${type.displayName} Provider`}
          </Title>
          {provider && (
            <ProviderDataButton paymentProviderId={provider.id} providerName={providerName} />
          )}
        </Group>
        <Tabs
          value={tab}
          onChange={(value) => setTab((value as ProviderTab) ?? 'general')}
          keepMounted={false}
        >
          <Tabs.List>
            {tabs.map((name) => (
              <Tabs.Tab key={name} value={name}>
                {tabLabels[name]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="general" pt="md">
            <GeneralTab
              form={form}
              type={type}
              configurationId={provider?.id ?? null}
              stored={provider?.credentials ?? null}
            />
          </Tabs.Panel>
          {tabs.includes('options') && (
            <Tabs.Panel value="options" pt="md">
              <OptionsTab form={form} providerName={providerName} opayoPi={opayoPi} />
            </Tabs.Panel>
          )}
          {tabs.includes('bank') && (
            <Tabs.Panel value="bank" pt="md">
              <BankDetailsTab form={form} />
            </Tabs.Panel>
          )}
        </Tabs>
        <Paper withBorder p="sm" pos="sticky" bottom={0} style={{ zIndex: 2 }}>
          <DialogActions
            onCancel={() => void navigate(providersPath)}
            loading={create.isPending || update.isPending}
          />
        </Paper>
      </Stack>
    </form>
  );
}
