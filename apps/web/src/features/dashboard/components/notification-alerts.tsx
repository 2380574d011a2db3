import type { TenantSettingName } from '@ledgerline/contract';
import { Alert, Stack, Text } from '@mantine/core';
import { IconBellOff } from '@tabler/icons-react';
import { useTenantSetting } from '@/lib/api/get-tenant-setting';

interface NotificationAlertProps {
  setting: TenantSettingName;
  title: string;
  paragraphs: readonly [string, string];
}

function NotificationAlert({ setting, title, paragraphs }: NotificationAlertProps) {
  const { data: allowed } = useTenantSetting(setting);
  if (allowed !== false) return null;
  return (
    <Alert color="red" variant="light" title={title} icon={<IconBellOff size={18} />}>
      {paragraphs.map((paragraph) => (
        <Text key={paragraph} size="sm" mb={4}>
          {paragraph}
        </Text>
      ))}
    </Alert>
  );
}

/** spec 1 §2.4: red banners when the contract does not allow customer or internal notifications. */
export function NotificationAlerts() {
  return (
    <Stack gap="sm">
      <NotificationAlert
        setting="AllowCustomerNotifications"
        title="Customer notifications are not allowed"
        paragraphs={[
          'Your contract does not allow Ledgerline to send notifications to your customers, so payers receive no e-mails about payment requests or payments.',
          'To have customer notifications turned on, contact your account manager.',
        ]}
      />
      <NotificationAlert
        setting="AllowInternalNotifications"
        title="Internal notifications are not allowed"
        paragraphs={[
          'Your contract does not allow Ledgerline to send notifications to your own staff, so nobody in your company is e-mailed about payments or failed payment attempts.',
          'To have internal notifications turned on, contact your account manager.',
        ]}
      />
    </Stack>
  );
}
