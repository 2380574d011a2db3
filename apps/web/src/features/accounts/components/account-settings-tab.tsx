import {
  configurationChoice,
  editPaymentOverrideStatuses,
  editPaymentStatuses,
  fromConfigurationChoice,
  type Account,
  type EditPaymentOverrideStatus,
  type EditPaymentStatus,
} from '@ledgerline/contract';
import { Button, Card, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { failureMessage } from '@/ui/form-errors';
import { usePermission } from '@/ui/use-permission';
import { spaceWords } from '@/ui/words';
import { useUpdateAccountSettings } from '../api/update-account-settings';

/**
 * The choices for settlements or late payments (spec 2 §2 Settings tab). Configuration groups
 * are not listed yet (their screens are another area's); a group the account already has stays
 * choosable so saving other settings keeps it.
 */
function choices(disabledLabel: string, groupId: string | null) {
  const options = [
    { value: 'default', label: 'Company default' },
    { value: 'none', label: disabledLabel },
  ];
  return groupId
    ? [...options, { value: groupId, label: `Configuration group ${groupId}` }]
    : options;
}

const statusOptions = editPaymentStatuses.map((value) => ({ value, label: value }));
const overrideOptions = editPaymentOverrideStatuses.map((value) => ({
  value,
  label: spaceWords(value),
}));

/** spec 2 §2 Account detail, settings tab; controls and save need EditAccountSettings (spec 2 §6). */
export function AccountSettingsTab({ account }: { account: Account }) {
  const allowed = usePermission('EditAccountSettings');
  const settings = account.accountSettings;
  const [settlements, setSettlements] = useState<string>(
    configurationChoice(
      settings.disableAutoApplySettlements,
      settings.settlementConfigurationGroupId,
    ),
  );
  const [latePayments, setLatePayments] = useState<string>(
    configurationChoice(settings.disableLatePayments, settings.latePaymentConfigurationGroupId),
  );
  const [editPaymentStatus, setEditPaymentStatus] = useState<EditPaymentStatus>(
    settings.editPaymentStatus,
  );
  const [overrideStatus, setOverrideStatus] = useState<EditPaymentOverrideStatus>(
    settings.editPaymentOverrideStatus,
  );
  const { mutate, isPending } = useUpdateAccountSettings(account.id);

  function save() {
    const settlement = fromConfigurationChoice(settlements);
    const latePayment = fromConfigurationChoice(latePayments);
    mutate(
      {
        disableAutoApplySettlements: settlement.disabled,
        settlementConfigurationGroupId: settlement.groupId,
        disableLatePayments: latePayment.disabled,
        latePaymentConfigurationGroupId: latePayment.groupId,
        editPaymentStatus,
        editPaymentOverrideStatus: overrideStatus,
      },
      {
        onSuccess: () =>
          notifications.show({ color: 'green', message: 'Account settings updated' }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: failureMessage('The account settings could not be saved', error),
          }),
      },
    );
  }

  const disabled = !allowed || isPending;
  return (
    <Card withBorder padding="lg" maw={900}>
      <Stack gap="md">
        {!allowed ? (
          <Text size="sm" c="dimmed">
            Changing account settings needs the Edit Account Settings permission.
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label="Auto-apply settlements"
            data={choices('Auto-apply disabled', settings.settlementConfigurationGroupId)}
            value={settlements}
            onChange={(value) => value && setSettlements(value)}
            allowDeselect={false}
            disabled={disabled}
          />
          <Select
            label="Late payments"
            data={choices('Late payments disabled', settings.latePaymentConfigurationGroupId)}
            value={latePayments}
            onChange={(value) => value && setLatePayments(value)}
            allowDeselect={false}
            disabled={disabled}
          />
          <Select
            label="Edit payment status"
            data={statusOptions}
            value={editPaymentStatus}
            onChange={(value) => value && setEditPaymentStatus(value as EditPaymentStatus)}
            allowDeselect={false}
            disabled={disabled}
          />
          <Select
            label="Edit payment override"
            data={overrideOptions}
            value={overrideStatus}
            onChange={(value) => value && setOverrideStatus(value as EditPaymentOverrideStatus)}
            allowDeselect={false}
            disabled={disabled}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button onClick={save} loading={isPending} disabled={!allowed}>
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
