import { Anchor, Breadcrumbs, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '@/ui/page-title';
import { usePermission } from '@/ui/use-permission';
import { useAccount } from '../api/get-account';
import { AccountInfoTab } from './account-info-tab';
import { AccountPayersTab } from './account-payers-tab';
import { AccountPaymentRequestsTab, AccountTransactionsTab } from './account-related-tabs';
import { AccountReminderSettings } from './account-reminder-settings';
import { AccountRemindersTab } from './account-reminders-tab';
import { AccountSettingsTab } from './account-settings-tab';
import { CountTab } from '@/ui/count-tab';
import { NewAccountRequestDialog } from './new-account-request-dialog';
import { RelatedPaymentTransactions } from './related-payment-transactions';
import { StatementLinkButton } from './statement-link-button';
import { useVisitedTabs } from './use-visited-tabs';
import { DetailLoadError, isRecordId } from '@/ui/detail-load-error';
import { LoadingState } from '@/ui/loading-state';
import { scrollingTabs } from '@/ui/scrolling-tabs';

const accountsPath = '/accounts';
type AccountTab =
  | 'info'
  | 'transactions'
  | 'payment-transactions'
  | 'payment-requests'
  | 'payers'
  | 'reminders'
  | 'settings';

/** spec 2 §2 Account detail: info, transactions, payment transactions, payment requests, payers, settings. */
export function AccountPage() {
  const { id = '' } = useParams();
  const { data: account, isPending, isError, error } = useAccount(id);
  const tabs = useVisitedTabs<AccountTab>('info');
  const title = account ? `${account.accountReference} - ${account.name}` : undefined;
  usePageTitle(title ? ['Accounts', title] : undefined);
  const canRequest = usePermission('EditPaymentRequest');
  const [requestOpened, requestDialog] = useDisclosure(false);
  // The new request shows in the Payment requests tab (its badge counts it).
  const requestCreated = () => tabs.open('payment-requests');

  if (!isRecordId(id) || isError) {
    return (
      <DetailLoadError
        record="account"
        error={isError ? error : null}
        backTo={accountsPath}
        backLabel="Back to Accounts"
      />
    );
  }
  if (isPending) {
    return <LoadingState label="Loading the account" />;
  }

  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to={accountsPath}>
          Accounts
        </Anchor>
        <Text span>{account.accountReference}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">{title}</Title>
        <Group gap="sm">
          <StatementLinkButton accountId={account.id} disabled={!canRequest} />
          <Button onClick={requestDialog.open} disabled={!canRequest}>
            New Request
          </Button>
        </Group>
      </Group>
      <NewAccountRequestDialog
        account={account}
        opened={requestOpened}
        onClose={requestDialog.close}
        onCreated={requestCreated}
      />
      <Tabs value={tabs.active} onChange={(value) => value && tabs.open(value as AccountTab)} classNames={scrollingTabs}>
        <Tabs.List>
          <Tabs.Tab value="info">Info</Tabs.Tab>
          <CountTab
            value="transactions"
            label="Transactions"
            count={account.counts?.transactions}
          />
          <CountTab
            value="payment-transactions"
            label="Payment transactions"
            count={account.counts?.paymentTransactions}
          />
          <CountTab
            value="payment-requests"
            label="Payment requests"
            count={account.counts?.paymentRequests}
          />
          <CountTab value="payers" label="Payers" count={account.counts?.payers} />
          <CountTab value="reminders" label="Reminders" count={account.counts?.reminders} />
          <Tabs.Tab value="settings">Settings</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="info" pt="md">
          <AccountInfoTab account={account} />
        </Tabs.Panel>
        <Tabs.Panel value="transactions" pt="md">
          {tabs.visited('transactions') ? <AccountTransactionsTab accountId={account.id} /> : null}
        </Tabs.Panel>
        <Tabs.Panel value="payment-transactions" pt="md">
          {tabs.visited('payment-transactions') ? (
            <RelatedPaymentTransactions owner={{ field: 'accountId', id: account.id }} />
          ) : null}
        </Tabs.Panel>
        <Tabs.Panel value="payment-requests" pt="md">
          {tabs.visited('payment-requests') ? (
            <AccountPaymentRequestsTab accountId={account.id} />
          ) : null}
        </Tabs.Panel>
        <Tabs.Panel value="payers" pt="md">
          {tabs.visited('payers') ? <AccountPayersTab accountId={account.id} /> : null}
        </Tabs.Panel>
        <Tabs.Panel value="reminders" pt="md">
          {tabs.visited('reminders') ? <AccountRemindersTab accountId={account.id} /> : null}
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          {tabs.visited('settings') ? (
            <Stack gap="lg">
              <AccountSettingsTab account={account} />
              <AccountReminderSettings accountId={account.id} />
            </Stack>
          ) : null}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
