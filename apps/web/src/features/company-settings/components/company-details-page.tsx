import {
  updateCompanySettingsBody,
  type CompanySettings,
  type UpdateCompanySettingsBody,
} from '@ledgerline/contract';
import {
  Autocomplete,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useDefaultCountryIn } from '@/lib/api/default-country';
import { useCompanySettings } from '@/lib/api/get-company-settings';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { PageHeader } from '@/ui/page-header';
import { usePermission } from '@/ui/use-permission';
import { useCountries, useStates } from '../api/get-countries';
import { useUpdateCompanySettings } from '../api/update-company-settings';

type DetailsForm = {
  companyDetails: {
    name: string;
    website: string;
    taxCode: string;
    mainAddress: Record<
      | 'firstNames'
      | 'surname'
      | 'email'
      | 'telephone'
      | 'address1'
      | 'address2'
      | 'city'
      | 'state'
      | 'postCode'
      | 'country',
      string
    >;
  };
};

function initialValues(settings: CompanySettings): DetailsForm {
  const d = settings.companyDetails;
  const a = d?.mainAddress;
  return {
    companyDetails: {
      name: d?.name ?? settings.name,
      website: d?.website ?? '',
      taxCode: d?.taxCode ?? '',
      mainAddress: {
        firstNames: a?.firstNames ?? '',
        surname: a?.surname ?? '',
        email: a?.email ?? '',
        telephone: a?.telephone ?? '',
        address1: a?.address1 ?? '',
        address2: a?.address2 ?? '',
        city: a?.city ?? '',
        state: a?.state ?? '',
        postCode: a?.postCode ?? '',
        country: a?.country ?? '',
      },
    },
  };
}

/** The company's main address; its states follow the country chosen. */
function MainAddressFields({
  form,
  field,
}: {
  form: UseFormReturnType<DetailsForm>;
  field: (path: string) => ReturnType<UseFormReturnType<DetailsForm>['getInputProps']>;
}) {
  const { data: countries } = useCountries();
  const country =
    countries?.items.find(
      (c) => c.displayName === form.values.companyDetails.mainAddress.country,
    ) ?? null;
  const { data: states } = useStates(country?.id ?? null);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <TextInput
        label="Address line 1"
        required
        {...field('companyDetails.mainAddress.address1')}
      />
      <TextInput label="Address line 2" {...field('companyDetails.mainAddress.address2')} />
      <TextInput label="City" required {...field('companyDetails.mainAddress.city')} />
      <Autocomplete
        label="State"
        required
        data={states?.items.map((s) => s.displayName) ?? []}
        limit={50}
        {...field('companyDetails.mainAddress.state')}
      />
      <TextInput label="Post code" required {...field('companyDetails.mainAddress.postCode')} />
      <Select
        label="Country"
        required
        searchable
        // Required: choosing the chosen country again keeps it (it starts at the default country).
        allowDeselect={false}
        data={countries?.items.map((c) => c.displayName) ?? []}
        {...field('companyDetails.mainAddress.country')}
        onChange={(value) => form.setFieldValue('companyDetails.mainAddress.country', value ?? '')}
      />
    </SimpleGrid>
  );
}

function DetailsFormCard({ settings }: { settings: CompanySettings }) {
  const canEdit = usePermission('ConfigureSystemSettings');
  const form = useForm<DetailsForm>({
    mode: 'controlled',
    initialValues: initialValues(settings),
    validate: zod4Resolver(updateCompanySettingsBody),
  });
  const update = useUpdateCompanySettings();
  // A company without a country starts at its default country.
  useDefaultCountryIn(form, 'companyDetails.mainAddress.country');
  const field = (path: string) => ({ ...form.getInputProps(path), disabled: !canEdit });

  const save = form.onSubmit((values) =>
    update.mutate(values satisfies UpdateCompanySettingsBody, {
      onSuccess: (saved) => {
        form.resetDirty(initialValues(saved));
        notifications.show({ color: 'green', message: 'Company details successfully updated' });
      },
      onError: (error) => {
        form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
        notifications.show({
          color: 'red',
          message: failureMessage('An error occurred while updating the company details: ', error),
        });
      },
    }),
  );

  return (
    <Card withBorder component="form" onSubmit={save} noValidate>
      <Stack>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <TextInput label="Company name" required {...field('companyDetails.name')} />
          <TextInput label="Website" placeholder="https://" {...field('companyDetails.website')} />
          <TextInput
            label="First names"
            required
            {...field('companyDetails.mainAddress.firstNames')}
          />
          <TextInput label="Surname" required {...field('companyDetails.mainAddress.surname')} />
          <TextInput
            label="E-mail"
            type="email"
            required
            {...field('companyDetails.mainAddress.email')}
          />
          <TextInput label="Telephone" {...field('companyDetails.mainAddress.telephone')} />
          <TextInput label="Tax code" {...field('companyDetails.taxCode')} />
        </SimpleGrid>
        <MainAddressFields form={form} field={field} />
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={update.isPending}
            disabled={!canEdit}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** spec 3 §2 /settings/details: inputs and Save disabled without ConfigureSystemSettings. */
export function CompanyDetailsPage() {
  const { data: settings, isPending } = useCompanySettings();
  return (
    <Stack>
      <PageHeader
        title="Company Details"
        description="Your company's name, contact and address, shown to your customers."
      />
      {isPending || !settings ? (
        <LoadingState label="Loading the company details" />
      ) : (
        <DetailsFormCard settings={settings} />
      )}
    </Stack>
  );
}
