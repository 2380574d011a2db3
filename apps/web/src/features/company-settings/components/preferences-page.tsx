import { companyPreferencesMessages } from '@ledgerline/contract';
import { Alert, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import type {
  CompanyPreferences,
  Country,
  CustomHostIdSetting,
  PaymentRequestSettings,
} from '@ledgerline/contract';
import { useQuery } from '@tanstack/react-query';
import {
  companyPreferencesQueryOptions,
  useUpdateCompanyPreferences,
} from '@/lib/api/company-preferences';
import {
  usePaymentRequestSettings,
  useUpdatePaymentRequestSettings,
} from '@/lib/api/payment-request-settings';
import { isApiError } from '@/lib/http';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { PageHeader } from '@/ui/page-header';
import { usePermission } from '@/ui/use-permission';
import { useCustomHostIdSetting, useUpdateCustomHostIdSetting } from '../api/custom-host-id';
import { useCountries } from '../api/get-countries';
import { CustomHostIdSection } from './custom-host-id-section';
import { GeneralPreferencesTab } from './general-preferences-tab';
import {
  advancedValues,
  customHostIdBody,
  generalValues,
  paymentRequestBody,
  preferencesBody,
  validateAdvanced,
  validateGeneral,
  type AdvancedForm,
  type GeneralForm,
} from './preferences-form';

type Tab = 'general' | 'advanced';
const generalFields: Record<string, string> = {
  defaultCountryId: 'defaultCountryId',
  quantity: 'expiryQuantity',
  unit: 'expiryUnit',
  defaultUsageType: 'defaultUsageType',
};

function FailedIcon({ label }: { label: string }) {
  return <IconAlertCircle size={16} color="var(--mantine-color-red-6)" aria-label={label} />;
}

function PreferencesForms({
  preferences,
  requestSettings,
  customHostId,
  countries,
}: {
  preferences: CompanyPreferences;
  requestSettings: PaymentRequestSettings;
  customHostId: CustomHostIdSetting;
  countries: readonly Country[];
}) {
  const canEdit = usePermission('ConfigureSystemSettings');
  const [tab, setTab] = useState<Tab>('general');
  const [failed, setFailed] = useState<Record<Tab, boolean>>({ general: false, advanced: false });
  const [saving, setSaving] = useState(false);
  const general = useForm<GeneralForm>({
    mode: 'controlled',
    initialValues: generalValues(preferences, requestSettings, new Set(countries.map((c) => c.id))),
    validate: validateGeneral,
  });
  const advanced = useForm<AdvancedForm>({
    mode: 'controlled',
    initialValues: advancedValues(customHostId),
    validate: validateAdvanced,
  });
  const savePreferences = useUpdateCompanyPreferences();
  const saveRequestSettings = useUpdatePaymentRequestSettings();
  const saveCustomHostId = useUpdateCustomHostIdSetting();

  // spec 3 §2: one Save validates both tabs first and saves nothing if either fails. The
  // Advanced tab is saved only when it was changed (a company may have no parse value yet).
  const save = async () => {
    const advancedChanged = advanced.isDirty();
    const generalCheck = general.validate();
    const advancedCheck = advancedChanged ? advanced.validate() : { hasErrors: false };
    const invalid = { general: generalCheck.hasErrors, advanced: advancedCheck.hasErrors };
    setFailed(invalid);
    if (invalid.general || invalid.advanced) {
      setTab(invalid.general ? 'general' : 'advanced');
      return;
    }
    setSaving(true);
    const values = general.getValues();
    const [prefs, requests, hostId] = await Promise.allSettled([
      savePreferences.mutateAsync(preferencesBody(values)),
      saveRequestSettings.mutateAsync(paymentRequestBody(values)),
      advancedChanged
        ? saveCustomHostId.mutateAsync(customHostIdBody(advanced.getValues()))
        : Promise.resolve(null),
    ]);
    setSaving(false);
    const generalErrors = [prefs, requests].flatMap((r) =>
      r.status === 'rejected' ? [r.reason] : [],
    );
    for (const error of generalErrors) {
      const fields = problemFieldErrors(error);
      general.setErrors(
        Object.fromEntries(Object.entries(fields).map(([k, v]) => [generalFields[k] ?? k, v])),
      );
    }
    if (hostId.status === 'rejected') advanced.setErrors(problemFieldErrors(hostId.reason, { fields: advanced.getValues() }));
    const nowFailed = { general: generalErrors.length > 0, advanced: hostId.status === 'rejected' };
    setFailed(nowFailed);
    if (!nowFailed.general && !nowFailed.advanced) {
      general.resetDirty();
      advanced.resetDirty();
      notifications.show({ color: 'green', message: 'Settings successfully updated' });
      return;
    }
    const first = generalErrors[0] ?? (hostId.status === 'rejected' ? hostId.reason : null);
    notifications.show({
      color: 'red',
      message: failureMessage('An error occurred while updating the settings: ', first),
    });
    setTab(nowFailed.general ? 'general' : 'advanced');
  };

  return (
    <Stack>
      <Tabs
        value={tab}
        onChange={(value) => setTab((value as Tab | null) ?? 'general')}
        keepMounted
      >
        <Tabs.List>
          <Tabs.Tab
            value="general"
            rightSection={failed.general ? <FailedIcon label="General has errors" /> : null}
          >
            General
          </Tabs.Tab>
          <Tabs.Tab
            value="advanced"
            rightSection={failed.advanced ? <FailedIcon label="Advanced has errors" /> : null}
          >
            Advanced
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general" pt="md">
          <GeneralPreferencesTab form={general} countries={countries} disabled={!canEdit} />
        </Tabs.Panel>
        <Tabs.Panel value="advanced" pt="md">
          <CustomHostIdSection form={advanced} setting={customHostId} disabled={!canEdit} />
        </Tabs.Panel>
      </Tabs>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Saved settings take effect at once, for the next payment request and the next page you
          open.
        </Text>
        <Button
          leftSection={<IconDeviceFloppy size={16} />}
          loading={saving}
          disabled={!canEdit}
          onClick={() => void save()}
        >
          Save
        </Button>
      </Group>
    </Stack>
  );
}

/** spec 3 §2 /settings/preferences: General and Advanced tabs with one Save. */
export function PreferencesPage() {
  // The page says 'No preferences found' (spec 3 §8) or the failure itself, not an error page.
  const preferences = useQuery({
    ...companyPreferencesQueryOptions(),
    meta: { inlineErrors: true },
  });
  const requestSettings = usePaymentRequestSettings();
  const customHostId = useCustomHostIdSetting();
  const countries = useCountries();
  const queries = [preferences, requestSettings, customHostId, countries];
  const failure = queries.find((q) => q.isError)?.error;
  return (
    <Stack>
      <PageHeader
        title="Preferences"
        description="Defaults for this company's payment requests, and how custom host ids are made."
      />
      {failure ? (
        <Alert color="red" icon={<IconAlertCircle size={16} />}>
          {isApiError(failure) && failure.status === 404
            ? companyPreferencesMessages.noPreferences
            : failureMessage('An error occurred loading the data: ', failure)}
        </Alert>
      ) : preferences.data && requestSettings.data && customHostId.data && countries.data ? (
        <PreferencesForms
          preferences={preferences.data}
          requestSettings={requestSettings.data}
          customHostId={customHostId.data}
          countries={countries.data.items}
        />
      ) : (
        <LoadingState label="Loading the preferences" />
      )}
    </Stack>
  );
}
