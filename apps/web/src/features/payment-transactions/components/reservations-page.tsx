import type { Reservation, ReservationActionResult } from '@ledgerline/contract';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  List,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { DateTime } from '@/ui/date-time';
import { errorMessage } from '@/lib/status-routing';
import { failureMessage } from '@/ui/form-errors';
import { formatMoney } from '@/ui/money-format';
import { Money } from '@/ui/money';
import { PageHeader } from '@/ui/page-header';
import { usePermission } from '@/ui/use-permission';
import { useReservationAction, useReservations } from '../api/reservations';
import { EmptyState } from '@/ui/empty-state';
import { Pager } from '@/ui/pager';

const pageSize = 25;
const hour = 60 * 60 * 1000;

/** How soon a reservation lapses, in words a collector scans for. */
function lapses(expiresOn: string | null, now: number) {
  if (!expiresOn) return { text: 'No end known', urgent: false };
  const left = new Date(expiresOn).getTime() - now;
  if (left <= 0) return { text: 'Lapsed: being cancelled', urgent: true };
  if (left < 48 * hour)
    return { text: `Ends in ${Math.max(1, Math.round(left / hour))} h`, urgent: true };
  return { text: `Ends in ${Math.round(left / (24 * hour))} days`, urgent: false };
}

function total(rows: readonly Reservation[]) {
  const byCurrency = new Map<string, number>();
  for (const row of rows)
    byCurrency.set(row.currency, (byCurrency.get(row.currency) ?? 0) + row.totalAmount);
  return [...byCurrency].map(([currency, amount]) => formatMoney(amount, currency)).join(' + ');
}

/**
 * The reservations queue — money authorised but not yet taken, the one whose
 * authorisation lapses first at the top, with bulk capture (the whole of each) and bulk cancel.
 * A part capture stays on the payment's own page.
 */
export function ReservationsPage() {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [note, setNote] = useState('');
  const [refused, setRefused] = useState<ReservationActionResult['results']>([]);
  const reservations = useReservations(page, pageSize);
  const capture = useReservationAction('capture');
  const cancel = useReservationAction('cancel');
  const canCapture = usePermission('CapturePendingPayment');
  const canCancel = usePermission('CancelPendingPayment');
  const rows = reservations.data?.items ?? [];
  const chosen = rows.filter((row) => selected.has(row.id));
  const now = Date.now();

  function toggle(id: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function run(action: 'capture' | 'cancel') {
    const ids = chosen.map((row) => row.id);
    const what = `${ids.length} ${ids.length === 1 ? 'reservation' : 'reservations'} (${total(chosen)})`;
    modals.openConfirmModal({
      title: action === 'capture' ? 'Capture reservations' : 'Cancel reservations',
      centered: true,
      children: (
        <Text size="sm">
          {action === 'capture'
            ? `Take the whole of ${what} from the payers' cards or accounts?`
            : `Cancel ${what}? The payers are not charged and the invoices owe again.`}
        </Text>
      ),
      labels: { confirm: 'Yes', cancel: 'No' },
      confirmProps: action === 'cancel' ? { color: 'red' } : {},
      onConfirm: () =>
        (action === 'capture' ? capture : cancel).mutate(
          { ids, note: note.trim() || null },
          {
            onSuccess: ({ results }) => {
              const failed = results.filter((result) => result.isError);
              const done = results.length - failed.length;
              setRefused(failed);
              setSelected(new Set(failed.map((result) => result.id)));
              if (done > 0)
                notifications.show({
                  color: 'green',
                  message: `${done} ${done === 1 ? 'reservation' : 'reservations'} ${action === 'capture' ? 'captured' : 'cancelled'}`,
                });
              if (failed.length > 0)
                notifications.show({
                  color: 'red',
                  message: `${failed.length} could not be ${action === 'capture' ? 'captured' : 'cancelled'}: see why below.`,
                });
            },
            onError: (error) =>
              notifications.show({ color: 'red', message: failureMessage('', error) }),
          },
        ),
    });
  }

  const busy = capture.isPending || cancel.isPending;
  const allOnPage = rows.length > 0 && rows.every((row) => selected.has(row.id));
  return (
    <Stack gap="lg">
      <PageHeader
        title="Reservations"
        description="Payments authorised but not yet taken. Capture them before their authorisation ends, or cancel them so the invoices can be paid again."
      />
      {refused.length > 0 && (
        <Alert
          color="red"
          title="Some reservations were not changed"
          withCloseButton
          onClose={() => setRefused([])}
        >
          <List size="sm">
            {refused.map((result) => (
              <List.Item key={result.id}>
                {rows.find((row) => row.id === result.id)?.ledgerlineReference ?? result.id}:{' '}
                {result.errorMessage}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Group align="flex-end">
        <Textarea
          label="Note"
          description="Kept with each capture or cancellation."
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={1}
          style={{ flex: 1, minWidth: 240 }}
        />
        <Button
          disabled={!canCapture || chosen.length === 0}
          loading={capture.isPending}
          onClick={() => run('capture')}
        >
          Capture selected
        </Button>
        <Button
          color="red"
          variant="light"
          disabled={!canCancel || chosen.length === 0}
          loading={cancel.isPending}
          onClick={() => run('cancel')}
        >
          Cancel selected
        </Button>
      </Group>
      {reservations.isPending ? (
        <Stack aria-label="Loading the reservations">
          <Skeleton height={36} />
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      ) : reservations.isError ? (
        <Alert color="red">{errorMessage(reservations.error)}</Alert>
      ) : rows.length === 0 ? (
        <EmptyState message="No payment is reserved: nothing waits to be captured." />
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table
            striped
            aria-label="Reservations"
            aria-busy={busy || reservations.isPlaceholderData}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Checkbox
                    aria-label="Select every reservation on this page"
                    checked={allOnPage}
                    indeterminate={!allOnPage && chosen.length > 0}
                    onChange={(event) =>
                      rows.forEach((row) => toggle(row.id, event.currentTarget.checked))
                    }
                  />
                </Table.Th>
                <Table.Th>Authorisation ends</Table.Th>
                <Table.Th>Reference</Table.Th>
                <Table.Th>Customer</Table.Th>
                <Table.Th>Provider</Table.Th>
                <Table.Th ta="right">Amount reserved</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const ends = lapses(row.expiresOn, now);
                return (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${row.ledgerlineReference}`}
                        checked={selected.has(row.id)}
                        onChange={(event) => toggle(row.id, event.currentTarget.checked)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text
                        size="sm"
                        fw={ends.urgent ? 700 : undefined}
                        c={ends.urgent ? 'red.8' : undefined}
                      >
                        {ends.text}
                      </Text>
                      {row.expiresOn && (
                        <Text size="xs" c="dimmed">
                          <DateTime value={row.expiresOn} />
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/payment-transactions/${row.id}`}>
                        {row.ledgerlineReference}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      {row.paymentRequest?.customerName ?? row.customerName ?? '-'}
                    </Table.Td>
                    <Table.Td>{row.paymentProviderName ?? '-'}</Table.Td>
                    <Table.Td ta="right">
                      <Money amount={row.totalAmount} currency={row.currency} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager
        page={page}
        pageSize={pageSize}
        total={reservations.data?.totalItems ?? 0}
        onChange={(next) => {
          setPage(next);
          setSelected(new Set());
        }}
        label="Reservation pages"
      />
    </Stack>
  );
}
