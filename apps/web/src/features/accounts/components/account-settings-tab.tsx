import {
  configurationChoice,
  editPaymentOverrideStatuses,
  editPaymentStatuses,
  fromConfigurationChoice,
  usageTypes,
  type Account,
  type EditPaymentOverrideStatus,
  type EditPaymentStatus,
  type UsageType,
} from '@ledgerline/contract';
import { Button, Card, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { failureMessage } from '@/ui/form-errors';
import { usePermission } from '@/ui/use-permission';
import { spaceWords } from '@/ui/words';
import { useLatePayments, useSettlementGroups } from '@/lib/api/configuration-lists';
import { useUpdateAccountSettings } from '../api/update-account-settings';

interface Named {
  id: string;
  name: string;
}

/**
 * The choices for settlements or late payments (spec 2 §2 Settings tab): 'none' (disabled),
 * 'default' (the company's default) or one of the company's groups by name. A saved group the list
 * does not hold (the list failed to load, or the group is gone) stays choosable, named as such, so
 * saving other settings keeps it.
 */
function choices(disabledLabel: string, groups: Named[] | undefined, savedId: string | null) {
  const options = [
    { value: 'default', label: 'Company default' },
    { value: 'none', label: disabledLabel },
    ...(groups ?? []).map((group) => ({ value: group.id, label: group.name })),
  ];
  if (savedId && !options.some((option) => option.value === savedId)) {
    options.push({
      value: savedId,
      label: groups
        ? 'A configuration no longer listed'
        : 'Saved configuration (loading its name failed)',
    });
  }
  return options;
}

/** spec 2 §4: the account's default usage type; 'company' leaves it to the company's. */
const usageOptions = [
  { value: 'company', label: 'Company default' },
  ...usageTypes.map((value) => ({ value, label: value })),
];

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
  const [usage, setUsage] = useState<string>(settings.defaultUsageType ?? 'company');
  const { mutate, isPending } = useUpdateAccountSettings(account.id);
  const settlementGroups = useSettlementGroups();
  const latePaymentConfigurations = useLatePayments();

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
        defaultUsageType: usage === 'company' ? null : (usage as UsageType),
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
            data={choices(
              'Auto-apply disabled',
              settlementGroups.data,
              settings.settlementConfigurationGroupId,
            )}
            value={settlements}
            onChange={(value) => value && setSettlements(value)}
            allowDeselect={false}
            disabled={disabled}
          />
          <Select
            label="Late payments"
            data={choices(
              'Late payments disabled',
              latePaymentConfigurations.data,
              settings.latePaymentConfigurationGroupId,
            )}
            value={latePayments}
            onChange={(value) => value && setLatePayments(value)}
            allowDeselect={false}
            disabled={disabled}
          />
          <Select
            label="Default usage type"
            description="What new payment requests of this account take, and what a request without its own shows."
            data={usageOptions}
            value={usage}
            onChange={(value) => value && setUsage(value)}
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
