import type { SettlementOffer, TransactionDetail } from '@ledgerline/contract';
import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { DateTime } from '@/ui/date-time';
import { failureMessage } from '@/ui/form-errors';
import { Money } from '@/ui/money';
import { useDateFormat } from '@/ui/use-date-format';
import { useNow } from '@/ui/use-now';
import { usePermission } from '@/ui/use-permission';
import { spaceWords } from '@/ui/words';
import { useDeleteSettlementOffer } from '../api/delete-settlement-offer';
import { OffersApplyingToday } from './generated-offers';
import { SettlementOfferDialog } from './settlement-offer-dialog';
import { EmptyState } from '@/ui/empty-state';

type DialogState = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; offer: SettlementOffer };

/** spec 2 §2 settlement offers of a transaction; the rules of §4 decide what may be done. */
export function SettlementOffersTab({ transaction }: { transaction: TransactionDetail }) {
  const [dialog, setDialog] = useState<DialogState>({ mode: 'closed' });
  const canCreate = usePermission('CreateSettlementConfigurations');
  const canEdit = usePermission('EditSettlementConfigurations');
  const canDelete = usePermission('DeleteSettlementConfigurations');
  const remove = useDeleteSettlementOffer(transaction.id);
  const now = useNow(60_000);
  const today = useDateFormat().dayOf(now);
  // spec 2 §4: a FullyPaid transaction cannot get a new offer.
  const fullyPaid = transaction.paidStatus === 'FullyPaid';

  const confirmDelete = (offer: SettlementOffer) =>
    confirmDestructive({
      title: 'Delete Settlement Offer',
      message: `Are you sure you want to delete the ${spaceWords(offer.type).toLowerCase()} settlement offer${offer.description ? ` ${offer.description}` : ''}?`,
      onConfirm: () =>
        remove.mutate(offer.id, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: 'Settlement offer deleted' }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage(
                'An error occurred while deleting the settlement offer: ',
                error,
              ),
            }),
        }),
    });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          {fullyPaid
            ? 'The transaction is fully paid: no new offer can be added.'
            : 'Discounts for early payment of this transaction.'}
        </Text>
        <Button onClick={() => setDialog({ mode: 'add' })} disabled={!canCreate || fullyPaid}>
          New Settlement Offer
        </Button>
      </Group>
      {transaction.settlementOffers.length === 0 ? (
        <EmptyState message="No settlement offers" />
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label="Settlement offers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Type</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Discount</Table.Th>
                <Table.Th>Valid from</Table.Th>
                <Table.Th>Valid to</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {transaction.settlementOffers.map((offer) => {
                const expired =
                  offer.validUntil !== null && offer.validUntil < today;
                const used = offer.status === 'Used';
                return (
                  <Table.Tr key={offer.id}>
                    <Table.Td>{spaceWords(offer.type)}</Table.Td>
                    <Table.Td>{offer.description ?? '-'}</Table.Td>
                    <Table.Td>
                      {offer.type === 'PercentageDiscount' ? (
                        `${offer.percentageDiscount ?? 0} %`
                      ) : (
                        <Money amount={offer.amount} currency={offer.currency} />
                      )}
                    </Table.Td>
                    <Table.Td>
                      <DateTime value={offer.validFrom} dateOnly />
                    </Table.Td>
                    <Table.Td>
                      <DateTime value={offer.validUntil} dateOnly />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {offer.status}
                        {expired && (
                          <Badge color="gray" variant="light">
                            Expired
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          disabled={!canEdit || used}
                          onClick={() => setDialog({ mode: 'edit', offer })}
                        >
                          Edit
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          disabled={!canDelete || used}
                          onClick={() => confirmDelete(offer)}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <OffersApplyingToday transactionId={transaction.id} />
      {dialog.mode !== 'closed' && (
        <SettlementOfferDialog
          opened
          onClose={() => setDialog({ mode: 'closed' })}
          transaction={transaction}
          offer={dialog.mode === 'edit' ? dialog.offer : undefined}
        />
      )}
    </Stack>
  );
}
