import { timeZones } from '@ledgerline/contract';
import { Group, Stack, Text, Title } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useCurrentUser } from '@/auth/api/get-me';
import { useDateFormat } from '@/ui/use-date-format';
import { useNow } from '@/ui/use-now';

/** The dashboard's heading: today's date and the time in the user's own zone and formats. */
export function DashboardHeader() {
  const { data: user } = useCurrentUser();
  const { settings, formatDate, formatDateTime } = useDateFormat();
  const now = useNow();
  const zone = timeZones.find((timeZone) => timeZone.id === settings.timeZoneId);
  const greetingName = user?.forename || user?.displayName;

  return (
    <Stack gap={4}>
      <Title order={1} size="h2">Dashboard</Title>
      <Text c="dimmed">
        {greetingName ? `Welcome, ${greetingName}. ` : ''}Today is {formatDate(now, { long: true })}
        .
      </Text>
      <Group gap={6} c="dimmed">
        <IconClock size={16} aria-hidden="true" />
        <Text size="sm">
          {formatDateTime(now)}
          {zone ? ` · ${zone.displayName}` : ''}
        </Text>
      </Group>
    </Stack>
  );
}
