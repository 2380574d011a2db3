import {
  Anchor,
  Breadcrumbs,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { Link, useParams } from 'react-router';
import { CopyButton } from '@/ui/copy-button';
import { usePageTitle } from '@/ui/page-title';
import { useAccount } from '../api/get-account';
import { usePayer } from '../api/get-payer';
import { useRelatedPaymentTransactionsCount } from '../api/get-related-payment-transactions';
import { addressLine, fullName } from '../table/use-payers-columns';
import { CountTab } from '@/ui/count-tab';
import { RelatedPaymentTransactions } from './related-payment-transactions';
import { useVisitedTabs } from './use-visited-tabs';
import { DetailLoadError, isRecordId } from '@/ui/detail-load-error';
import { LoadingState } from '@/ui/loading-state';
import { scrollingTabs } from '@/ui/scrolling-tabs';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" mih={28}>
        <Text style={{ overflowWrap: 'anywhere' }}>{value === '' ? '-' : value}</Text>
        {value !== '' ? <CopyButton value={value} label={label.toLowerCase()} /> : null}
      </Group>
    </div>
  );
}

type PayerTab = 'info' | 'payment-transactions';

/** spec 2 §2 Payer detail: info with copy buttons; payment transactions loaded on first open. */
export function PayerPage() {
  const { accountId = '', id = '' } = useParams();
  const { data: payer, isPending, isError, error } = usePayer(accountId, id);
  // The breadcrumb names the account by its reference; usually cached already.
  const { data: account } = useAccount(accountId);
  const tabs = useVisitedTabs<PayerTab>('info');
  const name = payer ? fullName(payer.details) : '';
  const heading = payer
    ? name || payer.details.companyName || payer.details.emailAddress || 'Payer'
    : undefined;
  usePageTitle(heading ? ['Accounts', 'Payer', heading] : undefined);
  // spec 2 §2: the payment transactions, and so their count, load when the tab is first opened.
  const count = useRelatedPaymentTransactionsCount(
    { field: 'payerId', id },
    tabs.visited('payment-transactions'),
  ).data;

  const accountPath = `/accounts/${accountId}`;
  if (!isRecordId(accountId) || !isRecordId(id) || isError) {
    return (
      <DetailLoadError
        record="payer"
        error={isError ? error : null}
        backTo={accountPath}
        backLabel="Back to the account"
      />
    );
  }
  if (isPending) {
    return <LoadingState label="Loading the payer" />;
  }

  const details = payer.details;
  const address = [addressLine(details), details.postCode, details.country]
    .filter((part) => part && part !== '')
    .join(', ');
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to="/accounts">
          Accounts
        </Anchor>
        <Anchor component={Link} to={accountPath}>
          {account?.accountReference ?? 'Account'}
        </Anchor>
        <Text span>{heading}</Text>
      </Breadcrumbs>
      <Title order={1} size="h2">
        {heading}
      </Title>
      <Tabs
        value={tabs.active}
        onChange={(value) => value && tabs.open(value as PayerTab)}
        classNames={scrollingTabs}
      >
        <Tabs.List>
          <Tabs.Tab value="info">Info</Tabs.Tab>
          <CountTab value="payment-transactions" label="Payment transactions" count={count} />
        </Tabs.List>
        <Tabs.Panel value="info" pt="md">
          <Card withBorder padding="lg" maw={900}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Field label="Company name" value={details.companyName ?? ''} />
              <Field label="Full name" value={name} />
              <Field label="Email" value={details.emailAddress ?? ''} />
              <Field label="Address" value={address} />
            </SimpleGrid>
          </Card>
        </Tabs.Panel>
        <Tabs.Panel value="payment-transactions" pt="md">
          {tabs.visited('payment-transactions') ? (
            <RelatedPaymentTransactions owner={{ field: 'payerId', id: payer.id }} />
          ) : null}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
