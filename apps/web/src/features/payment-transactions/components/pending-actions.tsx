import type { PaymentTransaction, PendingActionResult } from '@ledgerline/contract';
import { Button, Group, Menu, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconChevronDown } from '@tabler/icons-react';
import { useState } from 'react';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { formatMoney } from '@/ui/money-format';
import { usePermission } from '@/ui/use-permission';
import { moneyInputProps } from './money-input-props';
import { useCancelPendingPayment } from '../api/cancel-pending-payment';
import { useCapturePendingPayment } from '../api/capture-pending-payment';

type Action = 'capture' | 'cancel';

/** spec 1 §8: an answer flagged isError shows its errorMessage as an error. */
function announce(result: PendingActionResult, success: string) {
  if (result.isError) notifications.show({ color: 'red', message: result.errorMessage ?? 'The provider refused.' });
  else notifications.show({ color: 'green', message: success });
}

function askYesNo(title: string, message: string, onYes: () => void) {
  modals.openConfirmModal({ title, centered: true, children: <Text size="sm">{message}</Text>, labels: { confirm: 'Yes', cancel: 'No' }, onConfirm: onYes });
}

function ActionDialog({ action, payment, onClose }: { action: Action; payment: PaymentTransaction; onClose: () => void }) {
  const [amount, setAmount] = useState<number | string>(payment.totalAmount);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const capture = useCapturePendingPayment(payment.id);
  const cancel = useCancelPendingPayment(payment.id);
  const pending = capture.isPending || cancel.isPending;

  const onError = (error: Error) => {
    setErrors(problemFieldErrors(error));
    notifications.show({ color: 'red', message: failureMessage(action === 'capture' ? 'The capture failed: ' : 'The cancellation failed: ', error) });
  };

  function submit() {
    if (action === 'capture') {
      const value = typeof amount === 'number' ? amount : Number.NaN;
      if (!(value > 0)) return setErrors({ amountToCapture: 'Amount to capture must be more than 0.' });
      if (value > payment.totalAmount) return setErrors({ amountToCapture: 'Amount to capture cannot be more than the amount authorised.' });
      askYesNo('Capture payment', `Capture ${formatMoney(value, payment.currency)} of this payment?`, () =>
        capture.mutate(
          { amountToCapture: value, note: note.trim() || null },
          { onSuccess: (result) => (announce(result, 'Pending payment captured'), onClose()), onError },
        ),
      );
    } else {
      askYesNo('Cancel payment', 'Cancel this pending payment? The customer is not charged.', () =>
        cancel.mutate({ note: note.trim() || null }, { onSuccess: (result) => (announce(result, 'Pending payment cancelled'), onClose()), onError }),
      );
    }
  }

  return (
    <Modal opened onClose={onClose} title={action === 'capture' ? 'Capture payment' : 'Cancel payment'} centered>
      <Stack>
        {action === 'capture' && (
          <NumberInput
            label="Amount to capture"
            description={`At most ${formatMoney(payment.totalAmount, payment.currency)}`}
            value={amount}
            onChange={setAmount}
            min={0}
            {...moneyInputProps(payment.currency)}
            error={errors.amountToCapture}
            data-autofocus
          />
        )}
        <Textarea label="Note" value={note} onChange={(event) => setNote(event.currentTarget.value)} maxLength={500} autosize minRows={2} error={errors.note} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={submit} loading={pending} color={action === 'cancel' ? 'red' : undefined}>
            {action === 'capture' ? 'Capture' : 'Cancel payment'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** spec 2 §4: a Pending payment offers capture and cancel, each behind its permission. */
export function PendingActions({ payment }: { payment: PaymentTransaction }) {
  const canCapture = usePermission('CapturePendingPayment');
  const canCancel = usePermission('CancelPendingPayment');
  const [action, setAction] = useState<Action | null>(null);
  if (payment.status !== 'Pending') return null;
  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <Button variant="light" rightSection={<IconChevronDown size={14} />}>
            Pending payment
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item disabled={!canCapture} onClick={() => setAction('capture')}>
            Capture
          </Menu.Item>
          <Menu.Item disabled={!canCancel} onClick={() => setAction('cancel')} color="red">
            Cancel
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {action && <ActionDialog action={action} payment={payment} onClose={() => setAction(null)} />}
    </>
  );
}
