import type { PaymentTransaction } from '@ledgerline/contract';
import { Anchor, Card, Skeleton, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useGrantedByServer } from '@/ui/use-permission';
import { useProviderConfiguration } from '../api/get-provider-configuration';
import { Field, text } from './detail-field';
import { ProviderDataButton } from './provider-data-dialog';

/**
 * spec 2 §2: the provider card links to the provider configuration. That page needs
 * ConfigurePaymentProvider (spec 3): whoever lacks it would land on /error/403, so they see the
 * configuration's name, kind and status here instead.
 */
export function PaymentProviderCard({ payment }: { payment: PaymentTransaction }) {
  const mayConfigure = useGrantedByServer('ConfigurePaymentProvider');
  const providerId = payment.paymentProviderId;
  return (
    <Card withBorder padding="lg" h="100%">
      <Title order={3} size="h5" mb="md">
        Payment provider
      </Title>
      <Stack gap="sm">
        {providerId && mayConfigure ? (
          <Field label="Provider">
            <Anchor component={Link} to={`/settings/payment-providers/${providerId}`}>
              {/* spec 2 §3: the configuration by its own name, with the provider it is. */}
              {payment.paymentProvider
                ? `${payment.paymentProvider.name} (${payment.paymentProvider.providerName})`
                : text(payment.paymentProviderName)}
            </Anchor>
          </Field>
        ) : providerId ? (
          <ConfigurationFields providerId={providerId} kind={payment.paymentProviderName} />
        ) : (
          <Field label="Provider">{text(payment.paymentProviderName)}</Field>
        )}
        <Field label="Provider reference">{text(payment.paymentProviderReference)}</Field>
        <ProviderDataButton
          paymentTransactionId={payment.id}
          providerName={payment.paymentProviderName}
        />
      </Stack>
    </Card>
  );
}

/** The configuration as the providers list shows it to anyone in the company. */
function ConfigurationFields({ providerId, kind }: { providerId: string; kind: string | null }) {
  const configuration = useProviderConfiguration(providerId, true);
  if (configuration.isPending) return <Skeleton h={120} />;
  const found = configuration.data ?? null;
  return (
    <>
      <Field label="Configuration">{found ? found.name : 'No longer configured'}</Field>
      <Field label="Provider">{text(found?.providerName ?? kind)}</Field>
      {found && (
        <Field label="Status">{`${found.enabled ? 'Enabled' : 'Disabled'}${found.isTest ? ' (test)' : ''}`}</Field>
      )}
    </>
  );
}
