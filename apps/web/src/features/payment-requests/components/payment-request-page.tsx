import type { PaymentRequest } from '@ledgerline/contract';
import {
  Alert,
  Anchor,
  Breadcrumbs,
  Group,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { Link, useParams } from 'react-router';
import { DetailLoadError, isRecordId } from '@/ui/detail-load-error';
import { CountTab } from '@/ui/count-tab';
import { formatMoney } from '@/ui/money-format';
import { usePermission } from '@/ui/use-permission';
import { usePaymentRequest } from '../api/get-payment-request';
import { StatusTag } from '@/ui/status-tag';
import { spaceWords } from '@/ui/words';
import { CancelRequestButton } from './cancel-request-button';
import { CopyLinkButton, SendRequestButton } from './request-share-actions';
import { RequestInfoTab } from './request-info-tab';
import { RequestPaymentsTab } from './request-payments-tab';
import { cannotEditHint, requestStatusTone } from './request-texts';
import { RequestTransactionsTab } from './request-transactions-tab';
import { scrollingTabs } from '@/ui/scrolling-tabs';

/** The request's status, its amount as the title, who and what it is, and its actions. */
function RequestHeading({ request, mayEdit }: { request: PaymentRequest; mayEdit: boolean }) {
  return (
    <Group justify="space-between" align="flex-end" gap="md">
      {/* spec 2 §2: the amount to pay is the title; who and what it is beside it, the status on top. */}
      <Stack gap={4}>
        <Group gap="xs">
          <StatusTag
            label={spaceWords(request.requestStatus)}
            tone={requestStatusTone[request.requestStatus]}
          />
        </Group>
        <Group gap="sm" align="baseline">
          <Title order={1} size="h2">
            {formatMoney(request.amountToPay, request.currency)}
          </Title>
          <Text c="dimmed" data-testid="request-subtitle">
            {[request.customerName, request.customerReference].filter(Boolean).join(' · ')}
          </Text>
        </Group>
      </Stack>
      <Group gap="sm">
        <CopyLinkButton request={request} />
        <SendRequestButton request={request} mayEdit={mayEdit} />
        <CancelRequestButton request={request} mayEdit={mayEdit} />
      </Group>
    </Group>
  );
}

/** spec 2 §2 Payment request detail: the amount to pay as title; Info, Transactions and Payment transactions tabs. */
export function PaymentRequestPage() {
  const { id = '' } = useParams();
  const { data: request, isPending, isError, error } = usePaymentRequest(id);
  const mayEdit = usePermission('EditPaymentRequest');

  if (!isRecordId(id) || isError) {
    return (
      <DetailLoadError
        record="payment request"
        error={isError ? error : null}
        backTo="/payment-requests"
        backLabel="Back to Payment Requests"
      />
    );
  }
  if (isPending) {
    return (
      <Stack aria-label="Loading the payment request">
        <Skeleton height={32} width={240} />
        <Skeleton height={320} />
      </Stack>
    );
  }

  // spec 2 §4, §6: editing needs the permission and an editable (Open) request.
  const editable = mayEdit && request.canEdit === true;
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to="/payment-requests">
          Payment Requests
        </Anchor>
        <Text span>{request.customerReference ?? request.customerName ?? request.id}</Text>
      </Breadcrumbs>
      <RequestHeading request={request} mayEdit={mayEdit} />
      {request.canEdit === false && <Alert color="gray">{cannotEditHint(request)}</Alert>}
      <Tabs defaultValue="info" keepMounted={false} classNames={scrollingTabs}>
        <Tabs.List>
          <Tabs.Tab value="info">Info</Tabs.Tab>
          {request.requestType === 'Transaction' && (
            <CountTab
              value="transactions"
              label="Transactions"
              count={request.transactions?.length ?? 0}
            />
          )}
          <CountTab
            value="payments"
            label="Payment transactions"
            count={request.paymentTransactions?.length ?? 0}
          />
        </Tabs.List>
        <Tabs.Panel value="info" pt="md">
          <RequestInfoTab request={request} editable={editable} />
        </Tabs.Panel>
        {request.requestType === 'Transaction' && (
          <Tabs.Panel value="transactions" pt="md">
            <RequestTransactionsTab request={request} editable={editable} now={new Date()} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="payments" pt="md">
          <RequestPaymentsTab request={request} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
