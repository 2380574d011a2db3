import { Anchor, Card, Stack, Table, Text, Title } from '@mantine/core';
import type { PayerQuote, PayerQuoteInvoice } from '@ledgerline/contract';
import { Link } from 'react-router';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { WideTable } from '@/ui/wide-table';

const feeNames = { StatutoryInterest: 'Statutory interest', FixedSum: 'Fixed sum' } as const;

/** The offer the discount comes from: its words, its kind and id, and its last day. */
function OfferNote({ offer }: { offer: NonNullable<PayerQuoteInvoice['offer']> }) {
  return (
    <Text size="xs" c="dimmed" fw={400}>
      {offer.description ?? 'Early-payment discount'} (
      {offer.source === 'Generated' ? 'generated offer' : 'offer'} {offer.id})
      {offer.validUntil && (
        <>
          , valid until <DateTime value={offer.validUntil} dateOnly />
        </>
      )}
    </Text>
  );
}

function InvoiceOffer({ invoice, currency }: { invoice: PayerQuoteInvoice; currency: string }) {
  const reference = invoice.reference ?? 'Deleted transaction';
  const headingId = `payer-quote-${invoice.transactionId}`;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId}>
      <Title order={4} size="h6" mb="xs" id={headingId}>
        Invoice{' '}
        {invoice.reference ? (
          <Anchor component={Link} to={`/transactions/${invoice.transactionId}`}>
            {reference}
          </Anchor>
        ) : (
          reference
        )}
      </Title>
      <WideTable>
        <Table aria-labelledby={headingId} withRowBorders layout="fixed">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row">Outstanding</Table.Th>
              <Table.Td ta="right">
                <Money amount={invoice.outstandingAmount} currency={currency} />
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">
                Discount
                {invoice.offer && <OfferNote offer={invoice.offer} />}
              </Table.Th>
              <Table.Td ta="right">
                <Money amount={invoice.discount} currency={currency} />
              </Table.Td>
            </Table.Tr>
            {invoice.fees.map((fee) => (
              <Table.Tr key={fee.type}>
                <Table.Th scope="row">
                  {feeNames[fee.type]}
                  <Text size="xs" c="dimmed" fw={400}>
                    {fee.description}
                  </Text>
                </Table.Th>
                <Table.Td ta="right">
                  <Money amount={fee.amount} currency={currency} />
                </Table.Td>
              </Table.Tr>
            ))}
            {invoice.chosenAmount !== null && (
              <Table.Tr>
                <Table.Th scope="row">
                  Amount the payer chose
                  <Text size="xs" c="dimmed" fw={400}>
                    Paid in part: no discount or fees apply.
                  </Text>
                </Table.Th>
                <Table.Td ta="right">
                  <Money amount={invoice.chosenAmount} currency={currency} />
                </Table.Td>
              </Table.Tr>
            )}
            <Table.Tr>
              <Table.Th scope="row">To pay</Table.Th>
              <Table.Td ta="right" fw={600}>
                <Money amount={invoice.amountToPay} currency={currency} />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </WideTable>
      {invoice.feesReason && (
        <Text size="sm" c="dimmed" mt="xs">
          {invoice.feesReason}
        </Text>
      )}
    </Card>
  );
}

/**
 * What the payer page showed when the payer started this payment: per invoice the
 * outstanding amount, the discount and its offer, the late fees and the amount, then the totals.
 */
export function PayerQuotePanel({ quote }: { quote: PayerQuote }) {
  const { currency } = quote;
  const partPaid = quote.amountChosen !== quote.total;
  return (
    <Stack gap="md">
      <Text>
        What the payer was offered when they started this payment, on{' '}
        <DateTime value={quote.quotedAt} />.
      </Text>
      {quote.invoices.map((invoice) => (
        <InvoiceOffer key={invoice.transactionId} invoice={invoice} currency={currency} />
      ))}
      <Card withBorder padding="md" component="section" aria-labelledby="payer-quote-total">
        <Title order={4} size="h6" mb="xs" id="payer-quote-total">
          Total
        </Title>
        <WideTable>
          <Table aria-labelledby="payer-quote-total" withRowBorders layout="fixed">
            <Table.Tbody>
              {quote.invoices.length > 0 && (
                <>
                  <Table.Tr>
                    <Table.Th scope="row">Discounts</Table.Th>
                    <Table.Td ta="right">
                      <Money amount={quote.discountTotal} currency={currency} />
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th scope="row">Late fees</Table.Th>
                    <Table.Td ta="right">
                      <Money amount={quote.feeTotal} currency={currency} />
                    </Table.Td>
                  </Table.Tr>
                </>
              )}
              <Table.Tr>
                <Table.Th scope="row">Total offered</Table.Th>
                <Table.Td ta="right" fw={partPaid ? undefined : 600}>
                  <Money amount={quote.total} currency={currency} />
                </Table.Td>
              </Table.Tr>
              {partPaid && (
                <Table.Tr>
                  <Table.Th scope="row">Amount the payer chose</Table.Th>
                  <Table.Td ta="right" fw={600}>
                    <Money amount={quote.amountChosen} currency={currency} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </WideTable>
      </Card>
    </Stack>
  );
}
