import {
  refundLimits,
  refundMessages,
  type PaymentTransaction,
  type RefundResult,
} from '@ledgerline/contract';
import { Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconReceiptRefund } from '@tabler/icons-react';
import { useState } from 'react';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { formatMoney } from '@/ui/money-format';
import { usePermission } from '@/ui/use-permission';
import { moneyInputProps } from './money-input-props';
import { useRefundPayment } from '../api/refund-payment';

/** What the server said: the provider's refusal as an error, else what happened. */
function announce(result: RefundResult) {
  if (result.isError) {
    notifications.show({
      color: 'red',
      message: result.errorMessage ?? 'The provider refused the refund.',
    });
    return;
  }
  const underWay = result.refund?.status === 'Processing';
  notifications.show({
    color: 'green',
    message: underWay ? 'Refund requested: the provider is processing it' : 'Payment refunded',
  });
}

/** The confirmation's question: how much goes back, through which provider, and what follows. */
function RefundQuestion({
  payment,
  amount,
  whole,
}: {
  payment: PaymentTransaction;
  amount: number;
  whole: boolean;
}) {
  return (
    <Text size="sm">
      Give {formatMoney(amount, payment.currency)} back to the payer through{' '}
      {payment.paymentProviderName ?? 'the provider'}?{' '}
      {whole
        ? 'The invoices it paid will owe again.'
        : 'The invoices it paid will owe that much again.'}{' '}
      This cannot be undone.
    </Text>
  );
}

function RefundDialog({ payment, onClose }: { payment: PaymentTransaction; onClose: () => void }) {
  const left = payment.refundableAmount ?? 0;
  const [amount, setAmount] = useState<number | string>(left);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refund = useRefundPayment(payment.id);

  function submit() {
    const value = typeof amount === 'number' ? amount : Number.NaN;
    if (Number.isNaN(value)) return setErrors({ amount: refundMessages.amountRequired });
    if (!(value > 0)) return setErrors({ amount: refundMessages.amountPositive });
    if (value > left)
      return setErrors({
        amount: refundMessages.moreThanLeft(formatMoney(left, payment.currency)),
      });
    setErrors({});
    modals.openConfirmModal({
      title: 'Refund payment',
      centered: true,
      children: <RefundQuestion payment={payment} amount={value} whole={value === left} />,
      labels: { confirm: 'Yes, refund', cancel: 'No' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        refund.mutate(
          { amount: value, reason: reason.trim() || null },
          {
            onSuccess: (result) => {
              announce(result);
              if (!result.isError) onClose();
            },
            onError: (error) => {
              const fields = problemFieldErrors(error);
              setErrors(fields);
              notifications.show({
                color: 'red',
                message: failureMessage('The refund failed: ', error),
              });
            },
          },
        ),
    });
  }

  return (
    <Modal opened onClose={onClose} title="Refund payment" centered>
      <Stack>
        <NumberInput
          label="Amount to refund"
          description={`At most ${formatMoney(left, payment.currency)}, what is left of this payment`}
          value={amount}
          onChange={setAmount}
          min={0}
          {...moneyInputProps(payment.currency)}
          error={errors.amount}
          data-autofocus
        />
        <Textarea
          label="Reason"
          description="Kept with the refund; sent to the provider where it takes one."
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          maxLength={refundLimits.reason}
          autosize
          minRows={2}
          error={errors.reason}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button color="red" onClick={submit} loading={refund.isPending}>
            Refund
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A paid payment (or a Duplicated one) with money left offers a refund, behind the
 * RefundPayment permission (Administrators).
 */
export function RefundAction({ payment }: { payment: PaymentTransaction }) {
  const canRefund = usePermission('RefundPayment');
  const [open, setOpen] = useState(false);
  if (payment.type !== 'Payment' || !((payment.refundableAmount ?? 0) > 0)) return null;
  return (
    <>
      <Button
        variant="light"
        color="red"
        leftSection={<IconReceiptRefund size={16} />}
        disabled={!canRefund}
        title={canRefund ? undefined : 'Only an Administrator can refund a payment.'}
        onClick={() => setOpen(true)}
      >
        Refund
      </Button>
      {open && <RefundDialog payment={payment} onClose={() => setOpen(false)} />}
    </>
  );
}
