import {
  allocationAmountIssue,
  allocationInfoInputSchema,
  currencyDecimalPlaces,
  paymentRequestMessages,
  type PaymentRequest,
  type TransactionAllocation,
} from '@ledgerline/contract';
import { Group, Input, Modal, NumberInput, SegmentedControl, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useUpdateAllocationInfo } from '../api/update-allocation-info';
import { failedUpdate } from './request-texts';
import { DialogActions } from '@/ui/dialog-actions';

/**
 * spec 2 §3: required and canEditAmount are true, false or unset. An unset one
 * stays unset through an edit (null, not false), so the form holds the three states as text.
 */
type TriState = 'unset' | 'true' | 'false';
const triStateOf = (value: boolean | null): TriState =>
  value === null ? 'unset' : value ? 'true' : 'false';
const booleanOf = (value: TriState): boolean | null =>
  value === 'unset' ? null : value === 'true';
const triStateChoices = [
  { value: 'unset', label: 'Not set' },
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

type AllocationValues = {
  transactionId: string;
  amount: number | string;
  required: TriState;
  canEditAmount: TriState;
  minimumAmount: number | string;
  maximumAmount: number | string;
};
const resolver = zod4Resolver(allocationInfoInputSchema);
const optional = (value: number | string) => (value === '' ? null : value);

function toEntry(values: AllocationValues) {
  const canEditAmount = booleanOf(values.canEditAmount);
  return {
    transactionId: values.transactionId,
    amount: optional(values.amount),
    required: booleanOf(values.required),
    canEditAmount,
    // spec 2 §5: minimum and maximum only count when the payer can edit the amount.
    minimumAmount: canEditAmount === true ? optional(values.minimumAmount) : null,
    maximumAmount: canEditAmount === true ? optional(values.maximumAmount) : null,
  };
}

/** What the transaction still owes (spec 2 §4), to the currency's 4 stored decimals; null when not loaded. */
function outstandingOf(request: PaymentRequest, transactionId: string): number | null {
  const transaction = request.transactions?.find((candidate) => candidate.id === transactionId);
  if (!transaction) return null;
  return (
    Math.round(
      (transaction.transactionAmount - transaction.allocatedAmount - transaction.discountedAmount) *
        10_000,
    ) / 10_000
  );
}

function AllocationForm({
  request,
  allocation,
  onDone,
}: {
  request: PaymentRequest;
  allocation: TransactionAllocation;
  onDone: () => void;
}) {
  const requestId = request.id;
  const outstanding = outstandingOf(request, allocation.transactionId);
  const update = useUpdateAllocationInfo(requestId);
  const form = useForm<AllocationValues>({
    mode: 'controlled',
    initialValues: {
      transactionId: allocation.transactionId,
      amount: allocation.amount ?? '',
      required: triStateOf(allocation.required),
      canEditAmount: triStateOf(allocation.canEditAmount),
      minimumAmount: allocation.minimumAmount ?? '',
      maximumAmount: allocation.maximumAmount ?? '',
    },
    validate: (values) => {
      const errors = resolver(toEntry(values) as unknown as AllocationValues);
      // The amount within its limits (the contract) and not above what the invoice owes.
      const amount = optional(values.amount);
      if (!errors.amount && typeof amount === 'number') {
        const issue = allocationAmountIssue(amount, {
          minimumAmount: null,
          maximumAmount: null,
          outstanding,
        });
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
  const limitsDisabled = form.values.canEditAmount !== 'true';
  // Amounts in the request currency's minor units (JPY 0, KWD 3).
  const decimalScale = currencyDecimalPlaces(request.currency);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <NumberInput
          label="Amount"
          decimalScale={decimalScale}
          min={0}
          {...form.getInputProps('amount')}
        />
        <Input.Wrapper label="Required" id="allocation-required">
          <SegmentedControl
            display="flex"
            aria-label="Required"
            data={triStateChoices}
            {...form.getInputProps('required')}
          />
        </Input.Wrapper>
        <Input.Wrapper label="Can edit amount" id="allocation-can-edit-amount">
          <SegmentedControl
            display="flex"
            aria-label="Can edit amount"
            data={triStateChoices}
            {...form.getInputProps('canEditAmount')}
          />
        </Input.Wrapper>
        <Group grow align="flex-start">
          <NumberInput
            label="Minimum amount"
            decimalScale={decimalScale}
            min={0}
            disabled={limitsDisabled}
            {...form.getInputProps('minimumAmount')}
          />
          <NumberInput
            label="Maximum amount"
            decimalScale={decimalScale}
            min={0}
            disabled={limitsDisabled}
            {...form.getInputProps('maximumAmount')}
          />
        </Group>
        <DialogActions onCancel={onDone} loading={update.isPending} />
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
