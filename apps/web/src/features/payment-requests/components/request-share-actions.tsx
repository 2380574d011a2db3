import { paymentRequestMessages, type PaymentRequest } from '@ledgerline/contract';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconMail } from '@tabler/icons-react';
import { copiedMessage, copyFailedMessage } from '@/ui/copy-button';
import { failureMessage } from '@/ui/form-errors';
import { useSendPaymentRequest } from '../api/send-payment-request';

/** Copies the request's payment link, with the copy toasts of spec 2 §8. */
export function CopyLinkButton({ request }: { request: PaymentRequest }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(request.requestUrl);
    } catch {
      notifications.show({ color: 'red', message: copyFailedMessage });
      return;
    }
    notifications.show({ color: 'green', message: copiedMessage });
  };
  return (
    <Button variant="default" leftSection={<IconCopy size={16} />} onClick={copy}>
      Copy link
    </Button>
  );
}

/**
 * Mails the link to the billing contact: 'Send by e-mail' the first time,
 * 'Resend' once a mail has gone. Needs EditPaymentRequest and an Open request, like the other
 * actions on a request (spec 2 §6: disabled, not hidden); a request without a billing e-mail gets
 * the server's message.
 */
export function SendRequestButton({
  request,
  mayEdit,
}: {
  request: PaymentRequest;
  mayEdit: boolean;
}) {
  const send = useSendPaymentRequest();
  const sentBefore = (request.mails?.length ?? 0) > 0;
  const onClick = () =>
    send.mutate(request.id, {
      onSuccess: (answer) =>
        notifications.show({
          color: 'green',
          message: paymentRequestMessages.sent(answer.emailAddress),
        }),
      onError: (error) =>
        notifications.show({
          color: 'red',
          message: failureMessage('An error occurred while sending the payment request: ', error),
        }),
    });
  return (
    <Button
      variant="default"
      leftSection={<IconMail size={16} />}
      disabled={!mayEdit || request.requestStatus !== 'Open'}
      loading={send.isPending}
      onClick={onClick}
    >
      {sentBefore ? 'Resend' : 'Send by e-mail'}
    </Button>
  );
}
