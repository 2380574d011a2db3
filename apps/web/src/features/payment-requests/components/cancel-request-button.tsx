import { paymentRequestMessages, type PaymentRequest } from '@ledgerline/contract';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { failureMessage } from '@/ui/form-errors';
import { useCancelPaymentRequest } from '../api/cancel-payment-request';

/**
 * Staff cancel an Open request, after a confirmation; its payment link then says it was
 * cancelled. Disabled (spec 2 §6) without EditPaymentRequest or when the request is not Open.
 */
export function CancelRequestButton({
  request,
  mayEdit,
}: {
  request: PaymentRequest;
  mayEdit: boolean;
}) {
  const cancel = useCancelPaymentRequest();
  const ask = () =>
    confirmDestructive({
      title: 'Cancel Payment Request',
      message:
        'Cancel this payment request? Its payment link will say it was cancelled and nothing more can be paid through it. This cannot be undone.',
      confirmLabel: 'Cancel request',
      cancelLabel: 'Keep request',
      onConfirm: () =>
        cancel.mutate(request.id, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: paymentRequestMessages.cancelled }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage(
                'An error occurred while cancelling the payment request: ',
                error,
              ),
            }),
        }),
    });
  return (
    <Button
      color="red"
      variant="light"
      disabled={!mayEdit || request.requestStatus !== 'Open'}
      loading={cancel.isPending}
      onClick={ask}
    >
      Cancel request
    </Button>
  );
}
