import { providerConnectionMessages as messages } from '@ledgerline/contract';
import { navigateAway } from '@/lib/parent-redirect';
import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconBrandStripe } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '@/lib/status-routing';
import { failureMessage } from '@/ui/form-errors';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { useDisconnectStripeAccount } from '../api/disconnect-stripe-account';
import { useStripeAccount } from '../api/get-stripe-account';
import { useStripeKeys } from '../api/get-stripe-keys';
import { startStripeConnect } from '../api/start-stripe-connect';

/** Starts Stripe Connect for a new configuration (mode 0) or an existing one (mode 1). */
export function StripeConnectButton({ configurationId }: { configurationId: string | null }) {
  const keys = useStripeKeys();
  const ready = keys.data?.connectClientId;
  const [starting, setStarting] = useState(false);
  return (
    <Button
      leftSection={<IconBrandStripe size={18} />}
      loading={keys.isPending || starting}
      disabled={!ready}
      onClick={() => {
        if (!keys.data?.connectClientId) return;
        // The server issues the state and keeps it for this session.
        setStarting(true);
        startStripeConnect(configurationId).then(
          ({ url }) => navigateAway(url),
          (error: unknown) => {
            setStarting(false);
            notifications.show({ color: 'red', message: failureMessage('', error) });
          },
        );
      }}
    >
      Connect with Stripe
    </Button>
  );
}

/** No account yet: what connecting does, and the button that starts it. */
function NotConnectedCard({ configurationId }: { configurationId: string }) {
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Text fw={600}>Stripe account</Text>
        <Text size="sm" c="dimmed">
          This configuration is not connected to a Stripe account and does not take payments until
          it is. Connecting opens Stripe, where you sign in and choose the account.
        </Text>
        <Group>
          <StripeConnectButton configurationId={configurationId} />
        </Group>
      </Stack>
    </Card>
  );
}

/** spec 3 §2 card account link (edit only): the account information card. */
export function StripeAccountCard({
  configurationId,
  stripeAccountId,
}: {
  configurationId: string;
  stripeAccountId: string | null;
}) {
  const account = useStripeAccount(configurationId, stripeAccountId !== null);
  const disconnect = useDisconnectStripeAccount();

  if (!stripeAccountId) return <NotConnectedCard configurationId={configurationId} />;
  if (account.isPending) return <Loader size="sm" aria-label="Loading the Stripe account" />;
  if (account.isError || !account.data.valid) {
    return (
      <Alert color="red" title="Stripe account" icon={<IconAlertTriangle size={18} />}>
        {account.isError ? errorMessage(account.error) : messages.accountNotValid}
      </Alert>
    );
  }
  const info = account.data;
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>Stripe account</Text>
          <Group gap={4}>
            {info.defaultCurrency && <Badge variant="light">{info.defaultCurrency}</Badge>}
            {info.isTestMode && (
              <Badge variant="light" color="orange">
                Test mode
              </Badge>
            )}
            {info.isLegacyAccount && (
              <Badge variant="light" color="gray">
                Legacy account
              </Badge>
            )}
          </Group>
        </Group>
        {info.isLegacyAccount && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
            This is a legacy Stripe account. Contact support to move it to a current account.
          </Alert>
        )}
        {info.capabilities.cardPayments !== 'active' && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
            {messages.cardPaymentsUnsupported}
          </Alert>
        )}
        <TextInput label="Account name" value={info.displayName ?? info.id} readOnly />
        <input type="hidden" name="stripeAccountId" value={info.id} />
        <Group>
          <Button
            color="red"
            variant="light"
            loading={disconnect.isPending}
            onClick={() =>
              confirmDestructive({
                title: 'Disconnect',
                message: messages.disconnectConfirm,
                confirmLabel: 'Disconnect',
                onConfirm: () =>
                  disconnect.mutate(configurationId, {
                    onError: (error) =>
                      notifications.show({ color: 'red', message: failureMessage('', error) }),
                  }),
              })
            }
          >
            Disconnect
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
