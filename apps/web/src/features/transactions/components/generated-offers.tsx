import { Badge, Stack, Table, Title } from '@mantine/core';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';
import { useTransactionQuote } from '../api/get-transaction-quote';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

/** The offers that apply today, generated ones marked apart from manual ones. */
export function OffersApplyingToday({ transactionId }: { transactionId: string }) {
  const quote = useTransactionQuote(transactionId);
  if (!quote.data) return null;
  const { offers, bestOffer, currency } = quote.data;
  return (
    <Stack gap="xs">
      <Title order={5}>Offers that apply if paid today</Title>
      {offers.length === 0 ? (
        <EmptyState message="No offer applies today." />
      ) : (
        <WideTable>
          <Table aria-label="Offers that apply today">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Source</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Valid until</Table.Th>
                <Table.Th>Discount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {offers.map((offer) => (
                <Table.Tr key={`${offer.source}-${offer.id}`}>
                  <Table.Td>
                    <Badge variant="light" color={offer.source === 'Generated' ? 'violet' : 'blue'}>
                      {offer.source}
                    </Badge>
                    {bestOffer?.id === offer.id && bestOffer.source === offer.source && (
                      <Badge ml={4} color="green" variant="light">
                        Best
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{spaceWords(offer.type)}</Table.Td>
                  <Table.Td>{offer.description ?? '-'}</Table.Td>
                  <Table.Td>{offer.validUntil ?? '-'}</Table.Td>
                  <Table.Td>
                    <Money amount={offer.discount} currency={currency} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </WideTable>
      )}
    </Stack>
  );
}
