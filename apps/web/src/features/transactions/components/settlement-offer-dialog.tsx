import {
  currencyDecimalPlaces,
  type SettlementOffer,
  type TransactionDetail,
} from '@ledgerline/contract';
import { Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { CalendarDateInput } from '@/ui/calendar-date-input';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { spaceWords } from '@/ui/words';
import { useSaveSettlementOffer } from '../api/save-settlement-offer';
import {
  initialOfferValues,
  offerBodyOf,
  offerTypeChoices,
  validateOffer,
  type OfferType,
  type SettlementOfferFormValues,
} from './settlement-offer-form';
import { DialogActions } from '@/ui/dialog-actions';

interface OfferFormProps {
  transaction: TransactionDetail;
  /** The offer edited; none to add one. */
  offer?: SettlementOffer;
  onDone: () => void;
}

/** A clearable calendar-day field of the offer form, bound to `field`. */
function calendarDayProps(
  form: UseFormReturnType<SettlementOfferFormValues>,
  field: 'validFrom' | 'validUntil',
) {
  return {
    value: form.values[field],
    onChange: (day: string | null) => form.setFieldValue(field, day),
    error: form.getInputProps(field).error,
    clearable: true,
    popoverProps: { withinPortal: false },
  };
}

function OfferForm({ transaction, offer, onDone }: OfferFormProps) {
  const save = useSaveSettlementOffer(transaction.id);
  const form = useForm<SettlementOfferFormValues>({
    mode: 'controlled',
    initialValues: initialOfferValues(transaction, offer),
    validate: (values) => validateOffer(values, transaction.amountOwed),
  });
  const percentage = form.values.type === 'PercentageDiscount';

  const submit = form.onSubmit((values) => {
    const body = offerBodyOf(values);
    save.mutate(offer ? ({ ...body, id: offer.id } as never) : (body as never), {
      onSuccess: () => {
        notifications.show({
          color: 'green',
          message: offer ? 'Settlement offer updated' : 'Settlement offer added',
        });
        onDone();
      },
      onError: (error) => {
        form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
        const prefix = offer
          ? 'An error occurred while updating the settlement offer: '
          : 'An error occurred while adding the settlement offer: ';
        notifications.show({ color: 'red', message: failureMessage(prefix, error) });
      },
    });
  });

  const dateProps = (field: 'validFrom' | 'validUntil') => calendarDayProps(form, field);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Select
          label="Type"
          required
          allowDeselect={false}
          data={offerTypeChoices(transaction, offer !== undefined).map((type) => ({
            value: type,
            label: spaceWords(type),
          }))}
          {...form.getInputProps('type')}
          onChange={(value) => value && form.setFieldValue('type', value as OfferType)}
        />
        {percentage ? (
          <NumberInput
            label="Percentage discount"
            required
            // No min/max here: the input would clamp 101 to 100 without a word; the contract's
            // rule refuses it with its message instead.
            decimalScale={4}
            suffix=" %"
            {...form.getInputProps('percentageDiscount')}
          />
        ) : (
          <NumberInput
            label="Amount"
            required
            min={0}
            // The transaction currency's minor units.
            decimalScale={currencyDecimalPlaces(transaction.currency)}
            {...form.getInputProps('amount')}
          />
        )}
        <TextInput label="Currency" value={transaction.currency} readOnly />
        <TextInput label="Description" {...form.getInputProps('description')} />
        <CalendarDateInput label="Valid from" {...dateProps('validFrom')} />
        <CalendarDateInput label="Valid to" {...dateProps('validUntil')} />
        <DialogActions onCancel={onDone} loading={save.isPending} />
      </Stack>
    </form>
  );
}

interface SettlementOfferDialogProps extends Omit<OfferFormProps, 'onDone'> {
  opened: boolean;
  onClose: () => void;
}

/** spec 2 §2, §5: the add and edit dialog of a settlement offer. */
export function SettlementOfferDialog({ opened, onClose, ...props }: SettlementOfferDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={props.offer ? 'Edit Settlement Offer' : 'New Settlement Offer'}
      centered
    >
      <OfferForm {...props} onDone={onClose} />
    </Modal>
  );
}
