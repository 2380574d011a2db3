import { Anchor, Card, Grid, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import type { TransactionContact, TransactionDetail } from '@ledgerline/contract';
import { Link } from 'react-router';
import { useUserSetting } from '@/auth/api/get-me';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';
import { DetailField, textOr } from './detail-field';
import { OverdueBadge } from './overdue-badge';
import { PaidStatusTag } from './paid-status-tag';

function ContactCard({ contact }: { contact: TransactionContact | null }) {
  const name = [contact?.firstNames, contact?.surname].filter(Boolean).join(' ');
  const emails = [contact?.emailAddress, ...(contact?.emailAddresses ?? [])]
    .filter(Boolean)
    .join(', ');
  const address = contact?.address ?? contact?.addresses?.[0] ?? null;
  const addressText = [
    address?.address1,
    address?.address2,
    address?.address3,
    address?.address4,
    address?.city,
    address?.state,
    address?.postCode,
    address?.country,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <Card withBorder padding="lg" h="100%">
      <Title order={3} size="h5" mb="md">
        Contact
      </Title>
      <Stack gap="sm">
        <DetailField label="Company name">{textOr(contact?.companyName)}</DetailField>
        <DetailField label="Name">{textOr(name)}</DetailField>
        <DetailField label="Job title">{textOr(contact?.jobTitle)}</DetailField>
        <DetailField label="Email">{textOr(emails)}</DetailField>
        <DetailField label="Address">{textOr(addressText)}</DetailField>
      </Stack>
    </Card>
  );
}

/** spec 2 §2 Accounting transaction detail, info tab: details, contact and account cards. */
export function TransactionInfoTab({ transaction }: { transaction: TransactionDetail }) {
  const { showAdvancedInfo } = useUserSetting();
  const { currency } = transaction;
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <Card withBorder padding="lg" h="100%">
          <Title order={3} size="h5" mb="md">
            Details
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <DetailField label="Outstanding amount">
              <Money amount={transaction.amountOwed} currency={currency} />
            </DetailField>
            <DetailField label="Paid status">
              <PaidStatusTag status={transaction.paidStatus} />
            </DetailField>
            <DetailField label="Transaction amount">
              <Money amount={transaction.transactionAmount} currency={currency} />
            </DetailField>
            <DetailField label="Discounted amount">
              <Money amount={transaction.discountedAmount} currency={currency} />
            </DetailField>
            <DetailField label="Transaction date">
              <DateTime value={transaction.transactionDate} dateOnly />
            </DetailField>
            <DetailField label="Due date">
              <Group gap="xs">
                <DateTime value={transaction.dueDate} dateOnly />
                <OverdueBadge transaction={transaction} />
              </Group>
            </DetailField>
            <DetailField label="Type">
              {transaction.transactionTypeName ?? spaceWords(transaction.transactionType)}
            </DetailField>
            <DetailField label="Reference">{transaction.transactionReference}</DetailField>
            <DetailField label="Second reference">
              {textOr(transaction.transactionSecondReference)}
            </DetailField>
            <DetailField label="Order reference">{textOr(transaction.orderReference)}</DetailField>
            <DetailField label="Description">{textOr(transaction.description)}</DetailField>
            <DetailField label="Payment terms">
              {textOr(transaction.paymentTermsDescription)}
            </DetailField>
            <DetailField label="Posting application">
              {textOr(transaction.postingApplication)}
            </DetailField>
            {/* spec 2 §2, §6: the custom host id only with the showAdvancedInfo setting. */}
            {showAdvancedInfo && (
              <DetailField label="Custom host id">{textOr(transaction.customHostId)}</DetailField>
            )}
          </SimpleGrid>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6, lg: 3 }}>
        <ContactCard contact={transaction.contact} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6, lg: 3 }}>
        <Card withBorder padding="lg" h="100%">
          <Title order={3} size="h5" mb="md">
            Account
          </Title>
          <Stack gap="sm">
            <DetailField label="Name">
              <Anchor component={Link} to={`/accounts/${transaction.account.id}`}>
                {transaction.account.name}
              </Anchor>
            </DetailField>
            <DetailField label="Reference">{transaction.account.accountReference}</DetailField>
            <DetailField label="Currency">{textOr(transaction.account.currency)}</DetailField>
          </Stack>
        </Card>
      </Grid.Col>
    </Grid>
  );
}
