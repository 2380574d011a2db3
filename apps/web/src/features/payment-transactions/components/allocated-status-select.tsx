import { allocatedStatuses, type AllocatedStatus } from '@ledgerline/contract';
import { Select, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { failureMessage } from '@/ui/form-errors';
import { usePermission } from '@/ui/use-permission';
import { spaceWords } from '@/ui/words';
import { useUpdateAllocatedStatus } from '../api/update-allocated-status';

const options = allocatedStatuses.map((value) => ({ value, label: spaceWords(value) }));

/**
 * spec 2 §4: the allocated status changes at once, except away from AutoAllocated, which asks
 * first. Needs ChangeAllocatedStatus (spec 2 §6: disabled, not hidden, without it).
 */
export function AllocatedStatusSelect({ paymentTransactionId, value }: { paymentTransactionId: string; value: AllocatedStatus }) {
  const allowed = usePermission('ChangeAllocatedStatus');
  const { mutate, isPending } = useUpdateAllocatedStatus(paymentTransactionId);

  function apply(status: AllocatedStatus) {
    mutate(status, {
      onSuccess: () => notifications.show({ color: 'green', message: 'Allocated status updated' }),
      onError: (error) => notifications.show({ color: 'red', message: failureMessage('The allocated status could not be changed', error) }),
    });
  }

  function onChange(next: string | null) {
    if (!next || next === value) return;
    const status = next as AllocatedStatus;
    if (value !== 'AutoAllocated') return apply(status);
    modals.openConfirmModal({
      title: 'Change allocated status',
      centered: true,
      children: (
        <Text size="sm">
          This payment was allocated automatically. Change its allocated status to {spaceWords(status)}?
        </Text>
      ),
      labels: { confirm: 'Yes', cancel: 'No' },
      onConfirm: () => apply(status),
    });
  }

  return (
    <Select
      label="Allocated status"
      data={options}
      value={value}
      onChange={onChange}
      allowDeselect={false}
      disabled={!allowed || isPending}
      maw={260}
    />
  );
}
