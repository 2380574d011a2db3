import { allocationAmountIssue, allocationInfoInputSchema, paymentRequestMessages, type PaymentRequest, type TransactionAllocation } from '@ledgerline/contract';
import { Button, Checkbox, Group, Modal, NumberInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useUpdateAllocationInfo } from '../api/update-allocation-info';
import { failedUpdate } from './request-texts';

type AllocationValues = {
  transactionId: string;
  amount: number | string;
  required: boolean;
  canEditAmount: boolean;
  minimumAmount: number | string;
  maximumAmount: number | string;
};
const resolver = zod4Resolver(allocationInfoInputSchema);
const optional = (value: number | string) => (value === '' ? null : value);

function toEntry(values: AllocationValues) {
  return {
    ...values,
    amount: optional(values.amount),
    // spec 2 §5: minimum and maximum only count when the payer can edit the amount.
    minimumAmount: values.canEditAmount ? optional(values.minimumAmount) : null,
    maximumAmount: values.canEditAmount ? optional(values.maximumAmount) : null,
  };
}

/** What the transaction still owes (spec 2 §4), to the currency's 4 stored decimals; null when not loaded. */
function outstandingOf(request: PaymentRequest, transactionId: string): number | null {
  const transaction = request.transactions?.find((candidate) => candidate.id === transactionId);
  if (!transaction) return null;
  return Math.round((transaction.transactionAmount - transaction.allocatedAmount - transaction.discountedAmount) * 10_000) / 10_000;
}

function AllocationForm({ request, allocation, onDone }: { request: PaymentRequest; allocation: TransactionAllocation; onDone: () => void }) {
  const requestId = request.id;
  const outstanding = outstandingOf(request, allocation.transactionId);
  const update = useUpdateAllocationInfo(requestId);
  const form = useForm<AllocationValues>({
    mode: 'controlled',
    initialValues: {
      transactionId: allocation.transactionId,
      amount: allocation.amount ?? '',
      required: allocation.required ?? false,
      canEditAmount: allocation.canEditAmount ?? false,
      minimumAmount: allocation.minimumAmount ?? '',
      maximumAmount: allocation.maximumAmount ?? '',
    },
    validate: (values) => {
      const errors = resolver(toEntry(values) as unknown as AllocationValues);
      // Issue 10 item 6: the amount within its limits (the contract) and not above what the invoice owes.
      const amount = optional(values.amount);
      if (!errors.amount && typeof amount === 'number') {
        const issue = allocationAmountIssue(amount, { minimumAmount: null, maximumAmount: null, outstanding });
        if (issue) errors.amount = issue;
      }
      return errors;
    },
  });
  const submit = form.onSubmit((values) => {
    update.mutate([allocationInfoInputSchema.parse(toEntry(values))], {
      onSuccess: () => {
        notifications.show({ color: 'green', message: paymentRequestMessages.updated });
        onDone();
      },
      onError: (error) => {
        form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
        notifications.show({ color: 'red', message: failureMessage(failedUpdate, error) });
      },
    });
  });
  const limitsDisabled = !form.values.canEditAmount;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <NumberInput label="Amount" decimalScale={2} min={0} {...form.getInputProps('amount')} />
        <Checkbox label="Required" {...form.getInputProps('required', { type: 'checkbox' })} />
        <Checkbox label="Can edit amount" {...form.getInputProps('canEditAmount', { type: 'checkbox' })} />
        <Group grow align="flex-start">
          <NumberInput label="Minimum amount" decimalScale={2} min={0} disabled={limitsDisabled} {...form.getInputProps('minimumAmount')} />
          <NumberInput label="Maximum amount" decimalScale={2} min={0} disabled={limitsDisabled} {...form.getInputProps('maximumAmount')} />
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** spec 2 §5 Allocation edit of one transaction of the request. */
export function EditAllocationDialog({
  request,
  allocation,
  onClose,
}: {
  request: PaymentRequest;
  allocation: TransactionAllocation | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={allocation !== null} onClose={onClose} title="Edit allocation info" centered>
      {allocation && <AllocationForm request={request} allocation={allocation} onDone={onClose} />}
    </Modal>
  );
}
