import { formatIban } from '@ledgerline/contract';
import { Anchor, Breadcrumbs, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { CopyButton } from '@/ui/copy-button';
import { usePageTitle } from '@/ui/page-title';
import { useBank } from '../api/get-bank';
import { DetailLoadError, isRecordId } from '@/ui/detail-load-error';
import { LoadingState } from '@/ui/loading-state';

const banksPath = '/banks';

interface FieldProps {
  label: string;
  value: string | null;
  /** The text the copy button copies (the IBAN without its spaces); no button when absent. */
  copyValue?: string | null;
}

function Field({ label, value, copyValue }: FieldProps) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" mih={28}>
        <Text style={{ overflowWrap: 'anywhere' }}>{value && value !== '' ? value : '-'}</Text>
        {copyValue ? <CopyButton value={copyValue} label={label.toLowerCase()} /> : null}
      </Group>
    </div>
  );
}

/** spec 2 §2 Bank detail (read-only): account name, currency, description, account number, sort code, IBAN. */
export function BankDetailPage() {
  const { id = '' } = useParams();
  const { data: bank, isPending, isError, error } = useBank(id);
  usePageTitle(bank ? ['Banks', bank.accountName] : undefined);

  if (!isRecordId(id) || isError) {
    // spec 2 §8: the bank load is handled here, not by the error pages.
    return (
      <DetailLoadError
        record="bank"
        error={isError ? error : null}
        backTo={banksPath}
        backLabel="Back to Banks"
      />
    );
  }
  if (isPending) {
    return <LoadingState label="Loading the bank" />;
  }

  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to={banksPath}>
          Banks
        </Anchor>
        <Text span>{bank.accountName}</Text>
      </Breadcrumbs>
      <Title order={1} size="h2">{bank.accountName}</Title>
      <Card withBorder padding="lg" maw={900}>
        <Title order={3} size="h5" mb="md">
          Details
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Field label="Account name" value={bank.accountName} />
          <Field label="Currency" value={bank.currency} />
          <Field label="Description" value={bank.description} />
          <Field label="Account number" value={bank.accountNumber} copyValue={bank.accountNumber} />
          <Field label="Sort code" value={bank.sortCode} copyValue={bank.sortCode} />
          <Field
            label="IBAN"
            value={bank.iban ? formatIban(bank.iban) : null}
            copyValue={bank.iban}
          />
        </SimpleGrid>
      </Card>
    </Stack>
  );
}
