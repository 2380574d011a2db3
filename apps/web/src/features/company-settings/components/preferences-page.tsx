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
import { companyPreferencesQueryOptions } from '@/lib/api/company-preferences';
import { usePaymentRequestSettings } from '@/lib/api/payment-request-settings';
import { isApiError } from '@/lib/http';
import { failureMessage } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { PageHeader } from '@/ui/page-header';
import { usePermission } from '@/ui/use-permission';
import { useCustomHostIdSetting } from '../api/custom-host-id';
import { useCountries } from '../api/get-countries';
import { useSavePreferences } from '../api/save-preferences';
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
/** The server's field paths (`paymentRequest.validUntilAddition.quantity`) on the General tab's fields. */
const generalFields: Record<string, string> = {
  defaultCountryId: 'defaultCountryId',
  quantity: 'expiryQuantity',
  unit: 'expiryUnit',
  defaultUsageType: 'defaultUsageType',
};

/** A refused save's field messages by tab: `customHostId.…` are the Advanced tab's. */
function tabErrors(error: unknown): Record<Tab, Record<string, string>> {
  const result: Record<Tab, Record<string, string>> = { general: {}, advanced: {} };
  if (!isApiError(error)) return result;
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const [part] = path.split('.');
    const last = path.split('.').pop() ?? path;
    if (!messages[0]) continue;
    if (part === 'customHostId') result.advanced[last] ??= messages[0];
    else result.general[generalFields[last] ?? last] ??= messages[0];
  }
  return result;
}

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
  const saveAll = useSavePreferences();

  // spec 3 §2: one Save validates both tabs, always, and saves nothing if either fails; then one
  // call saves both in one transaction, so a part the server refuses leaves the other unsaved.
  const save = async () => {
    const invalid = {
      general: general.validate().hasErrors,
      advanced: advanced.validate().hasErrors,
    };
    setFailed(invalid);
    if (invalid.general || invalid.advanced) {
      setTab(invalid.general ? 'general' : 'advanced');
      return;
    }
    setSaving(true);
    const values = general.getValues();
    try {
      await saveAll.mutateAsync({
        preferences: preferencesBody(values),
        paymentRequest: paymentRequestBody(values),
        customHostId: customHostIdBody(advanced.getValues()),
      });
      general.resetDirty();
      advanced.resetDirty();
      notifications.show({ color: 'green', message: 'Settings successfully updated' });
    } catch (error) {
      const errors = tabErrors(error);
      general.setErrors(errors.general);
      advanced.setErrors(errors.advanced);
      const nowFailed = {
        general: Object.keys(errors.general).length > 0,
        advanced: Object.keys(errors.advanced).length > 0,
      };
      setFailed(nowFailed);
      if (nowFailed.general || nowFailed.advanced)
        setTab(nowFailed.general ? 'general' : 'advanced');
      notifications.show({
        color: 'red',
        message: failureMessage('An error occurred while updating the settings: ', error),
      });
    } finally {
      setSaving(false);
    }
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
