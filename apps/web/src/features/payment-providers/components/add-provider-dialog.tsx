import { paymentMethodGroupLabels, type PaymentProviderTypeInfo } from '@ledgerline/contract';
import { Alert, Badge, Button, Card, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useFeatureFlags } from '@/lib/feature-flags';
import { useTenantSetting } from '@/lib/api/get-tenant-setting';
import { LoadingState } from '@/ui/loading-state';
import { usePaymentProviderTypes } from '../api/get-payment-provider-types';

/**
 * spec 3 §2, §6: which cards the dialog offers. Beta kinds only with ShowBetaPaymentProviders;
 * a kind's own flag turned off hides it (a flag the server does not send leaves it on:
 * docs/decisions/045-payment-provider-configurations.md, "Payment provider configurations").
 */
export function offeredTypes(
  types: readonly PaymentProviderTypeInfo[],
  showBeta: boolean,
  flags: Record<string, boolean | undefined>,
): PaymentProviderTypeInfo[] {
  return types.filter((type) => (showBeta || !type.isBeta) && flags[type.featureFlag] !== false);
}

export function AddProviderDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const types = usePaymentProviderTypes();
  const showBeta = useTenantSetting('ShowBetaPaymentProviders');
  const flags = useFeatureFlags() as Record<string, boolean | undefined>;
  const navigate = useNavigate();
  const cards = types.data ? offeredTypes(types.data, showBeta.data === true, flags) : [];

  return (
    <Modal opened={opened} onClose={onClose} title="Add Payment Provider" size="xl" centered>
      {types.isPending || showBeta.isPending ? (
        <LoadingState label="Loading the payment providers" />
      ) : types.isError ? (
        <Alert color="red">An error occurred loading the data</Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {cards.map((type) => (
            <Card key={type.providerName} withBorder padding="md" radius="md">
              <Stack gap="xs" h="100%" justify="space-between">
                <Stack gap={6}>
                  <Group gap="xs">
                    <Text fw={600}>{type.displayName}</Text>
                    {type.isBeta && <Badge variant="light">Beta</Badge>}
                    {type.isTestProvider && (
                      <Badge variant="light" color="gray">
                        Test provider
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {type.description}
                  </Text>
                  <Group gap={4}>
                    {type.supportedPaymentMethodGroups.map((group) => (
                      <Badge key={group} variant="outline" size="sm">
                        {paymentMethodGroupLabels[group]}
                      </Badge>
                    ))}
                  </Group>
                </Stack>
                <Group justify="flex-end">
                  <Button
                    size="xs"
                    aria-label={`Select ${type.displayName}`}
                    onClick={() => {
                      onClose();
                      void navigate(`/settings/payment-providers/new/${type.providerName}`);
                    }}
                  >
                    Select
                  </Button>
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Modal>
  );
}
