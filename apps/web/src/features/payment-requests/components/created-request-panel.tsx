import { paymentRequestMessages, type PaymentRequest } from '@ledgerline/contract';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { failureMessage } from '@/ui/form-errors';
import { formatMoney } from '@/ui/money-format';
import { usePermission } from '@/ui/use-permission';
import { useCancelPaymentRequest } from '../api/cancel-payment-request';
import { CopyLinkButton, SendRequestButton } from './request-share-actions';

/**
 * What the New Request dialog shows once the request exists — its link to copy or
 * send, a way to the request, and an Undo that cancels it, since the dialog's defaults (spec 2 §2)
 * make a request in one click and a mistaken click must be as easy to take back.
 */
export function CreatedRequestPanel({
  request,
  onDone,
}: {
  request: PaymentRequest;
  onDone: () => void;
}) {
  const mayEdit = usePermission('EditPaymentRequest');
  const cancel = useCancelPaymentRequest();
  const undo = () =>
    cancel.mutate(request.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: paymentRequestMessages.cancelled });
        onDone();
      },
      onError: (error) =>
        notifications.show({
          color: 'red',
          message: failureMessage(
            'An error occurred while cancelling the payment request: ',
            error,
          ),
        }),
    });
  return (
    <Stack gap="md">
      <Alert color="green" title={paymentRequestMessages.created}>
        <Text size="sm">
          {formatMoney(request.amountToPay, request.currency)} for{' '}
          {request.customerName ?? request.account?.name ?? 'the customer'}. Share its link with the
          payer.
        </Text>
      </Alert>
      <TextInput
        label="Payment link"
        value={request.requestUrl}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
      />
      <Group gap="sm">
        <CopyLinkButton request={request} />
        <SendRequestButton request={request} mayEdit={mayEdit} />
      </Group>
      <Group justify="space-between" gap="sm">
        <Anchor component={Link} to={`/payment-requests/${request.id}`} onClick={onDone}>
          Open the payment request
        </Anchor>
        <Group gap="sm">
          <Button
            variant="subtle"
            color="red"
            disabled={!mayEdit}
            loading={cancel.isPending}
            onClick={undo}
          >
            Undo: cancel this request
          </Button>
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Group>
    </Stack>
  );
}
