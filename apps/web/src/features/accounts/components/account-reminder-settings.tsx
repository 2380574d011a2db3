import { Alert, Button, Card, Group, Select, Stack, Switch, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useReminderSchedules } from '@/lib/api/configuration-lists';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { usePermission } from '@/ui/use-permission';
import {
  useAccountReminderSettings,
  useUpdateAccountReminderSettings,
} from '../api/account-reminders';

/** The account's reminder schedule ('none', the company default or a schedule) and pause. */
export function AccountReminderSettings({ accountId }: { accountId: string }) {
  const allowed = usePermission('EditAccountSettings');
  const saved = useAccountReminderSettings(accountId);
  const schedules = useReminderSchedules();
  const update = useUpdateAccountReminderSettings(accountId);
  const [choice, setChoice] = useState<string | null>(null);
  const [paused, setPaused] = useState<boolean | null>(null);
  const [error, setError] = useState<string | undefined>();
  if (saved.isError) return <Alert color="red">The reminder settings could not be loaded</Alert>;
  if (!saved.data) return null;
  const schedule = choice ?? saved.data.reminderSchedule;
  const isPaused = paused ?? saved.data.remindersPaused;
  const options = [
    { value: 'default', label: 'Company default' },
    { value: 'none', label: 'No reminders' },
    ...(schedules.data ?? []).map((s) => ({ value: s.id, label: s.name })),
  ];
  if (!options.some((option) => option.value === schedule))
    options.push({ value: schedule, label: 'A schedule no longer listed' });

  function save() {
    update.mutate(
      { reminderSchedule: schedule, remindersPaused: isPaused },
      {
        onSuccess: () => {
          setError(undefined);
          notifications.show({ color: 'green', message: 'Reminder settings updated' });
        },
        onError: (failure) => {
          const fields = problemFieldErrors(failure);
          setError(fields.reminderSchedule);
          if (!fields.reminderSchedule)
            notifications.show({
              color: 'red',
              message: failureMessage('The reminder settings could not be saved', failure),
            });
        },
      },
    );
  }

  return (
    <Card withBorder padding="lg" maw={900}>
      <Stack gap="md">
        <Title order={2} size="h4">
          Reminders
        </Title>
        <Group align="flex-end" grow>
          <Select
            label="Reminder schedule"
            data={options}
            value={schedule}
            onChange={(value) => value && setChoice(value)}
            allowDeselect={false}
            disabled={!allowed || update.isPending}
            error={error}
          />
          <Switch
            label="Pause reminders"
            checked={isPaused}
            onChange={(event) => setPaused(event.currentTarget.checked)}
            disabled={!allowed || update.isPending}
          />
        </Group>
        <Group justify="flex-end">
          <Button onClick={save} loading={update.isPending} disabled={!allowed}>
            Save reminders
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
