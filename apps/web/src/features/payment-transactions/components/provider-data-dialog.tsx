import { Alert, Button, Code, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useProviderEventPayload } from '../api/get-provider-event-payload';
import { useProviderEvents } from '../api/get-provider-events';

/** spec 2 §2: the dialog is wider for the providers whose payloads are wide. */
function dialogSize(providerName: string | null): 'xl' | 'lg' {
  return providerName === 'Opayo' ? 'xl' : 'lg';
}

function ProviderData({ paymentTransactionId }: { paymentTransactionId: string }) {
  const events = useProviderEvents(paymentTransactionId, true);
  // spec 2 §7: the last record is the one shown.
  const last = events.data?.items.at(-1);
  const payload = useProviderEventPayload(last?.id);

  if (events.isPending || (last && payload.isPending)) return <Loader size="sm" aria-label="Loading the provider data" />;
  if (events.isError || payload.isError) return <Alert color="red">Error loading data</Alert>;
  if (!last) return <Text c="dimmed">The provider has sent nothing about this payment yet.</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {last.providerName} · {last.eventType}
        {last.status ? ` · ${last.status}` : ''}
      </Text>
      <Code block style={{ maxHeight: 420, overflow: 'auto' }}>
        {payload.data}
      </Code>
    </Stack>
  );
}

/** The View button of the payment provider card and the provider data dialog it opens. */
export function ProviderDataButton({ paymentTransactionId, providerName }: { paymentTransactionId: string; providerName: string | null }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Group>
        <Button size="xs" variant="light" onClick={() => setOpened(true)}>
          View
        </Button>
      </Group>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Provider data" size={dialogSize(providerName)} centered>
        {opened && <ProviderData paymentTransactionId={paymentTransactionId} />}
      </Modal>
    </>
  );
}
