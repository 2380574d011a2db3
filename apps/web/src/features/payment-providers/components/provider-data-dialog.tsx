import type { PaymentProviderEvent } from '@ledgerline/contract';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { DateTime } from '@/ui/date-time';
import {
  providerEventsPerPage,
  usePaymentProviderEvents,
} from '../api/get-payment-provider-events';
import { EmptyState } from '@/ui/empty-state';
import { Pager } from '@/ui/pager';

/** The payload with a JSON answer shown as JSON rather than as one escaped string. */
function readablePayload(payload: string): string {
  try {
    const parsed = JSON.parse(payload) as { response?: { body?: unknown } };
    const body = parsed.response?.body;
    if (typeof body === 'string' && body.trim().startsWith('{')) {
      try {
        parsed.response!.body = JSON.parse(body) as unknown;
      } catch {
        // Not JSON after all: shown as the provider sent it.
      }
    }
    return JSON.stringify(parsed, null, 2);
  } catch {
    return payload;
  }
}

const failed = (status: string | null) =>
  status !== null && /^(http_|unreachable|not_sent)/.test(status);

function ProviderEventRow({ event }: { event: PaymentProviderEvent }) {
  const [shown, setShown] = useState(false);
  return (
    <Paper withBorder p="xs">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              <DateTime value={event.createdOn} />
            </Text>
            <Text size="sm" fw={500}>
              {event.eventType}
            </Text>
            {event.status && (
              <Badge size="sm" variant="light" color={failed(event.status) ? 'red' : 'gray'}>
                {event.status}
              </Badge>
            )}
          </Group>
          <Button size="compact-xs" variant="subtle" onClick={() => setShown((now) => !now)}>
            {shown ? 'Hide request and answer' : 'Show request and answer'}
          </Button>
        </Group>
        {shown && (
          <Code block style={{ maxHeight: 360, overflow: 'auto' }}>
            {readablePayload(event.payload)}
          </Code>
        )}
      </Stack>
    </Paper>
  );
}

function ProviderEvents({ paymentProviderId }: { paymentProviderId: string }) {
  const [page, setPage] = useState(1);
  const events = usePaymentProviderEvents(paymentProviderId, page);
  if (events.isPending) return <Loader size="sm" aria-label="Loading the provider data" />;
  if (events.isError) return <Alert color="red">Error loading data</Alert>;
  const { items, totalItems } = events.data;
  if (totalItems === 0) return <EmptyState message="No provider data yet" />;
  return (
    <Stack gap="xs">
      {items.map((event) => (
        <ProviderEventRow key={event.id} event={event} />
      ))}
      <Pager
        page={page}
        pageSize={providerEventsPerPage}
        total={totalItems}
        onChange={setPage}
        label="Provider data pages"
      />
    </Stack>
  );
}

/**
 * The "Provider data" action of a configuration's edit page and the dialog it opens,
 * what the provider said about the configuration (its connection exchanges), newest first.
 */
export function ProviderDataButton({
  paymentProviderId,
  providerName,
}: {
  paymentProviderId: string;
  providerName: string;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Provider data
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title="Provider data"
        // spec 2 §2: the dialog is wider for the providers whose payloads are wide.
        size={providerName === 'Opayo' ? 'xl' : 'lg'}
        centered
      >
        {opened && <ProviderEvents paymentProviderId={paymentProviderId} />}
      </Modal>
    </>
  );
}
