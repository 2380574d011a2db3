import { paymentProviderMessages as messages, paymentProviderType } from '@ledgerline/contract';
import { Alert, Anchor, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '@/lib/status-routing';
import { LoadingState } from '@/ui/loading-state';
import { usePageTitle } from '@/ui/page-title';
import { usePaymentProvider } from '../api/get-payment-provider';
import { GoCardlessRedirect } from './gocardless-redirect';
import { ProviderForm, providersPath } from './provider-form';

function UnknownProvider() {
  return (
    <Stack gap="md" maw={640}>
      <Alert color="red" icon={<IconAlertTriangle size={18} />}>
        {messages.unknownProvider}
      </Alert>
      <Anchor component={Link} to={providersPath}>
        Back to the payment providers
      </Anchor>
    </Stack>
  );
}

/** spec 3 §2 `/settings/payment-providers/new/{type}`: the add form of a kind. */
export function NewProviderPage() {
  const { type: providerName = '' } = useParams();
  const type = paymentProviderType(providerName);
  if (!type) return <UnknownProvider />;
  if (type.addedByAuthorisation) return <GoCardlessRedirect />;
  return <ProviderForm key={providerName} type={type} />;
}

/** spec 3 §2 `/settings/payment-providers/{id}`: the form chosen by the loaded configuration. */
export function EditProviderPage() {
  const { id = '' } = useParams();
  const provider = usePaymentProvider(id);
  usePageTitle(provider.data ? ['Payment Providers', provider.data.name] : undefined);
  if (provider.isPending) return <LoadingState label="Loading the payment provider" />;
  if (provider.isError) {
    return (
      <Alert color="red" title={messages.loadFailed} icon={<IconAlertTriangle size={18} />}>
        {errorMessage(provider.error)}
      </Alert>
    );
  }
  const type = paymentProviderType(provider.data.providerName);
  if (!type) return <UnknownProvider />;
  return <ProviderForm key={provider.data.id} type={type} provider={provider.data} />;
}
