import type { WebHookDelivery, WebHookEndpoint } from '@ledgerline/contract';
import { Button, Code, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconRefresh, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { CopyButton } from '@/ui/copy-button';
import { DateTime } from '@/ui/date-time';
import { failureMessage } from '@/ui/form-errors';
import { StatusTag, type StatusTone } from '@/ui/status-tag';
import { useRevealSecret, useRotateSecret } from '../api/endpoint-secret';
import { useDeliveries, useResendDelivery } from '../api/get-deliveries';
import { EmptyState } from '@/ui/empty-state';
import { Pager } from '@/ui/pager';

const itemsPerPage = 10;
const tones: Record<WebHookDelivery['status'], StatusTone> = {
  Pending: 'warning',
  Succeeded: 'success',
  Failed: 'danger',
};

/** One endpoint: its signing secret on demand, and its delivery log with a resend per delivery. */
export function EndpointDetailDialog({
  endpoint,
  onClose,
}: {
  endpoint: WebHookEndpoint;
  onClose: () => void;
}) {
  return (
    <Modal opened onClose={onClose} title={`Endpoint ${endpoint.url}`} size="xl" centered>
      <Stack gap="lg">
        <SigningSecret endpointId={endpoint.id} />
        <DeliveryLog endpointId={endpoint.id} />
      </Stack>
    </Modal>
  );
}

function SigningSecret({ endpointId }: { endpointId: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const reveal = useRevealSecret();
  const rotate = useRotateSecret();
  const fail = (prefix: string) => (error: Error) =>
    notifications.show({ color: 'red', message: failureMessage(prefix, error) });
  return (
    <Stack gap="xs">
      <Title order={4}>Signing secret</Title>
      <Text size="sm" c="dimmed">
        Your receiver verifies each request with this secret. Keep it like a password.
      </Text>
      {secret ? (
        <Group gap="xs" wrap="nowrap">
          <Code data-testid="web-hook-secret">{secret}</Code>
          <CopyButton value={secret} label="signing secret" />
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          whsec_••••••••
        </Text>
      )}
      <Group gap="sm">
        {!secret && (
          <Button
            variant="default"
            size="xs"
            leftSection={<IconEye size={14} />}
            loading={reveal.isPending}
            onClick={() =>
              reveal.mutate(endpointId, {
                onSuccess: setSecret,
                onError: fail('The secret could not be shown: '),
              })
            }
          >
            Show secret
          </Button>
        )}
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} />}
          loading={rotate.isPending}
          onClick={() =>
            confirmDestructive({
              title: 'Rotate signing secret',
              message:
                'A new secret signs every request from now on; receivers that check the old one will refuse them until they have the new one. Rotate the secret?',
              confirmLabel: 'Rotate',
              onConfirm: () =>
                rotate.mutate(endpointId, {
                  onSuccess: (next) => {
                    setSecret(next);
                    notifications.show({ color: 'green', message: 'Signing secret rotated.' });
                  },
                  onError: fail('The secret could not be rotated: '),
                }),
            })
          }
        >
          Rotate secret
        </Button>
      </Group>
    </Stack>
  );
}

/** Sends a delivery's event again, and says so. */
function ResendButton({
  delivery,
  resend,
}: {
  delivery: { id: string; eventType: string; eventId: string };
  resend: ReturnType<typeof useResendDelivery>;
}) {
  return (
    <Button
      size="xs"
      variant="subtle"
      leftSection={<IconSend size={14} />}
      aria-label={`Resend ${delivery.eventType} ${delivery.eventId}`}
      loading={resend.isPending && resend.variables === delivery.id}
      onClick={() =>
        resend.mutate(delivery.id, {
          onSuccess: () =>
            notifications.show({
              color: 'green',
              message: 'The event will be sent again.',
            }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage('The event could not be sent again: ', error),
            }),
        })
      }
    >
      Resend
    </Button>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const [page, setPage] = useState(1);
  const deliveries = useDeliveries(endpointId, page, itemsPerPage);
  const resend = useResendDelivery();
  const total = deliveries.data?.totalItems ?? 0;
  const items = deliveries.data?.items ?? [];
  return (
    <Stack gap="xs">
      <Title order={4}>Deliveries</Title>
      {deliveries.isPending ? (
        <Text size="sm" c="dimmed" role="status">
          Loading deliveries…
        </Text>
      ) : items.length === 0 ? (
        <EmptyState message="No deliveries yet. Events are listed here as they are sent." />
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label="Deliveries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Status code</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Attempt</Table.Th>
                <Table.Th>Last attempt</Table.Th>
                <Table.Th>Next retry</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((delivery) => (
                <Table.Tr key={delivery.id}>
                  <Table.Td>
                    <Text size="sm">{delivery.eventType}</Text>
                    {delivery.error && (
                      <Text size="xs" c="red">
                        {delivery.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <StatusTag label={delivery.status} tone={tones[delivery.status]} />
                  </Table.Td>
                  <Table.Td>{delivery.statusCode ?? '—'}</Table.Td>
                  <Table.Td>
                    {delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}
                  </Table.Td>
                  <Table.Td>{delivery.attempts}</Table.Td>
                  <Table.Td>
                    {delivery.lastAttemptOn ? <DateTime value={delivery.lastAttemptOn} /> : '—'}
                  </Table.Td>
                  <Table.Td>
                    {delivery.nextAttemptOn ? <DateTime value={delivery.nextAttemptOn} /> : '—'}
                  </Table.Td>
                  <Table.Td>
                    <ResendButton delivery={delivery} resend={resend} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager
        page={page}
        pageSize={itemsPerPage}
        total={total}
        onChange={setPage}
        label="Delivery pages"
      />
    </Stack>
  );
}
