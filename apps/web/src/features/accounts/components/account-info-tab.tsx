import type { Account } from '@ledgerline/contract';
import { Badge, Card, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { Money } from '@/ui/money';
import { StatusTag } from '@/ui/status-tag';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div">{children}</Text>
    </div>
  );
}

const dash = (value: string | null) => (value && value.trim() !== '' ? value : '-');

/** spec 2 §2 Account detail, info tab: the details card and the email contacts table. */
export function AccountInfoTab({ account }: { account: Account }) {
  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Title order={3} size="h5" mb="md">
          Details
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
          <Field label="Account type">
            <StatusTag label={account.accountType} tone="info" />
          </Field>
          <Field label="Name">{account.name}</Field>
          <Field label="Balance">
            <Money amount={account.balance} currency={account.currency} />
          </Field>
          <Field label="Overdue amount">
            <Money amount={account.overdueAmount} currency={account.currency} />
          </Field>
          <Field label="Disputed amount">
            <Money amount={account.disputedAmount} currency={account.currency} />
          </Field>
          <Field label="Credit limit">
            <Money amount={account.creditLimit} currency={account.currency} />
          </Field>
          <Field label="Reference">{account.accountReference}</Field>
          <Field label="Short name">{dash(account.shortName)}</Field>
        </SimpleGrid>
      </Card>
      <Card withBorder padding="lg">
        <Title order={3} size="h5" mb="md">
          Email contacts
        </Title>
        {account.emailAddresses.length === 0 ? (
          <EmptyState message="no email addresses found" />
        ) : (
          <WideTable>
          <Table aria-label="Email contacts" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Type</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Default</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {account.emailAddresses.map((email, index) => (
                <Table.Tr key={`${email.emailAddress}-${index}`}>
                  <Table.Td>{dash(email.type)}</Table.Td>
                  <Table.Td>{email.emailAddress}</Table.Td>
                  <Table.Td>
                    {email.isDefault ? <Badge variant="light">Default</Badge> : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          </WideTable>
        )}
      </Card>
    </Stack>
  );
}
