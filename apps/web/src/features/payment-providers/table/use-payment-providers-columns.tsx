import { paymentProviderType, type PaymentProviderSummary } from '@ledgerline/contract';
import { ActionIcon, Anchor, Badge, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { DataGridColumn } from '@/ui/data-grid';
import { ProviderLogo } from '../components/provider-logo';

interface ColumnActions {
  canConfigure: boolean;
  canDelete: boolean;
  onMakeDefault: (provider: PaymentProviderSummary) => void;
  onDelete: (provider: PaymentProviderSummary) => void;
}

/** The name, linked to its page, with its Default (or Make default) and Test badges. */
function ProviderName({
  provider,
  canConfigure,
  onMakeDefault,
}: Pick<ColumnActions, 'canConfigure' | 'onMakeDefault'> & { provider: PaymentProviderSummary }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Anchor component={Link} to={`/settings/payment-providers/${provider.id}`}>
        {provider.name}
      </Anchor>
      {provider.isDefault ? (
        <Badge color="green" variant="light">
          Default
        </Badge>
      ) : canConfigure ? (
        <Anchor
          component="button"
          type="button"
          size="xs"
          onClick={() => onMakeDefault(provider)}
          aria-label={`Make ${provider.name} the default`}
        >
          Make default
        </Anchor>
      ) : null}
      {paymentProviderType(provider.providerName)?.isTestProvider || provider.isTest ? (
        <Badge color="gray" variant="light">
          Test
        </Badge>
      ) : null}
    </Group>
  );
}

/** Edit and Delete, each for those who may. */
function ProviderActions({
  provider,
  canConfigure,
  canDelete,
  onDelete,
}: Omit<ColumnActions, 'onMakeDefault'> & { provider: PaymentProviderSummary }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {canConfigure && (
        <Tooltip label="Edit">
          <ActionIcon
            component={Link}
            to={`/settings/payment-providers/${provider.id}`}
            variant="subtle"
            aria-label={`Edit ${provider.name}`}
          >
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {canDelete && (
        <Tooltip label="Delete">
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={() => onDelete(provider)}
            aria-label={`Delete ${provider.name}`}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** spec 3 §2 list: logo, name, description, display priority, filter count, enabled, actions. */
export function usePaymentProvidersColumns({
  canConfigure,
  canDelete,
  onMakeDefault,
  onDelete,
}: ColumnActions) {
  return useMemo(
    (): DataGridColumn<PaymentProviderSummary>[] => [
      {
        accessor: 'logo',
        title: '',
        width: 64,
        render: (provider) => <ProviderLogo providerName={provider.providerName} size={32} />,
      },
      {
        accessor: 'name',
        title: 'Name',
        sortable: true,
        filter: { type: 'text' },
        render: (provider) => (
          <ProviderName
            provider={provider}
            canConfigure={canConfigure}
            onMakeDefault={onMakeDefault}
          />
        ),
      },
      {
        accessor: 'description',
        title: 'Description',
        sortable: true,
        filter: { type: 'text' },
        render: (provider) => provider.description ?? '-',
      },
      { accessor: 'displayPriority', title: 'Display priority', sortable: true, width: 150 },
      { accessor: 'filterCount', title: 'Filters', width: 100 },
      {
        accessor: 'enabled',
        title: 'Enabled',
        sortable: true,
        width: 110,
        render: (provider) => (
          <Badge color={provider.enabled ? 'green' : 'gray'} variant="light">
            {provider.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        ),
      },
      {
        accessor: 'actions',
        title: '',
        textAlign: 'right',
        width: 100,
        render: (provider) => (
          <ProviderActions
            provider={provider}
            canConfigure={canConfigure}
            canDelete={canDelete}
            onDelete={onDelete}
          />
        ),
      },
    ],
    [canConfigure, canDelete, onMakeDefault, onDelete],
  );
}
