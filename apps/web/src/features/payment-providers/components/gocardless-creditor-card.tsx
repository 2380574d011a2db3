import { Alert, Anchor, Badge, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '@/lib/status-routing';
import { useGoCardlessCreditor } from '../api/get-gocardless-creditor';

const statusLabels = {
  Unknown: 'Unknown',
  Successful: 'Successful',
  InReview: 'In review',
  ActionRequired: 'Action required',
} as const;

/** spec 3 §2 direct debit: the creditor information card. */
export function GoCardlessCreditorCard({ configurationId }: { configurationId: string }) {
  const creditor = useGoCardlessCreditor(configurationId);
  if (creditor.isPending) return <Loader size="sm" aria-label="Loading the creditor" />;
  if (creditor.isError) return <Alert color="red">{errorMessage(creditor.error)}</Alert>;
  const info = creditor.data;
  return (
    <Card withBorder padding="md">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>Creditor</Text>
          <Badge variant="light" color={info.status === 'Successful' ? 'green' : 'yellow'}>
            {statusLabels[info.status]}
          </Badge>
        </Group>
        <Text size="sm">Organisation id: {info.organisationId ?? '-'}</Text>
        <Text size="sm">Name: {info.name ?? '-'}</Text>
        {info.status === 'ActionRequired' && info.verifyUrl && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
            GoCardless needs more information before payouts can be received.{' '}
            <Anchor href={info.verifyUrl} target="_blank" rel="noreferrer">
              Continue onboarding
            </Anchor>
          </Alert>
        )}
        {info.status !== 'Successful' && (
          <Text size="xs" c="dimmed">
            Verification must be complete before payouts can be received.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
