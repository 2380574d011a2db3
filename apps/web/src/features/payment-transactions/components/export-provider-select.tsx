import { Select } from '@mantine/core';
import { useExportProviders } from '../api/get-export-providers';

const allProviders = '';

/** spec 2 §2, §5: the export's payment provider, from the company's provider configurations. */
export function ExportProviderSelect({
  opened,
  value,
  onChange,
}: {
  opened: boolean;
  value: string | null;
  onChange: (paymentProviderId: string | null) => void;
}) {
  const providers = useExportProviders(opened);
  const items = providers.data?.items ?? [];
  // A remembered provider that no longer exists is not offered, and not sent.
  const known = value !== null && items.some((provider) => provider.id === value);
  return (
    <Select
      label="Payment provider"
      data={[
        { value: allProviders, label: 'All providers' },
        ...items.map((provider) => ({
          value: provider.id,
          label: `${provider.name} (${provider.providerName})`,
        })),
      ]}
      value={known ? value : allProviders}
      onChange={(next) => onChange(next ? next : null)}
      allowDeselect={false}
      disabled={providers.isPending}
      error={providers.isError ? 'The payment providers could not be loaded.' : undefined}
      comboboxProps={{ withinPortal: false }}
    />
  );
}
