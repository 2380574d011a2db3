import { reminderMessages, reminderTimePattern, type ReminderSchedule } from '@ledgerline/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useCompanyPreferences, useUpdateCompanyPreferences } from '@/lib/api/company-preferences';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { LoadingState } from '@/ui/loading-state';
import { GridToolbar } from '@/ui/grid-toolbar';
import { PageHeader } from '@/ui/page-header';
import { useGridState } from '@/ui/use-grid-state';
import { usePermission } from '@/ui/use-permission';
import { WideTable } from '@/ui/wide-table';
import { useDeleteReminderSchedule } from '../api/delete-reminder-schedule';
import { useReminderSchedules } from '../api/get-reminder-schedules';
import { ReminderPreview } from './reminder-preview';
import { ReminderScheduleDialog } from './reminder-schedule-dialog';

const stepWords = (schedule: ReminderSchedule) =>
  schedule.steps
    .map((step) =>
      step.days === 0
        ? 'on the due date'
        : step.days < 0
          ? `${-step.days} before`
          : `${step.days} after`,
    )
    .join(', ');

/** A refused save: the errors under their fields, or, when none names a field, a toast. */
function runSettingsFailure(error: Error, body: Record<string, unknown>) {
  const fields = problemFieldErrors(error, { fields: body });
  if (Object.keys(fields).length === 0)
    notifications.show({
      color: 'red',
      message: failureMessage('The reminder settings could not be saved', error),
    });
  return fields;
}

/** The default schedule and when the daily run goes out, in the company's own zone. */
function RunSettings({ schedules }: { schedules: ReminderSchedule[] }) {
  const preferences = useCompanyPreferences();
  const update = useUpdateCompanyPreferences();
  const canEdit = usePermission('ConfigureSystemSettings');
  const [edited, setEdited] = useState<{ schedule?: string; time?: string; zone?: string }>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (!preferences.data) return null;
  const saved = preferences.data;
  const schedule = edited.schedule ?? saved.defaultReminderScheduleId ?? 'none';
  const time = edited.time ?? saved.reminderTime;
  const zone = edited.zone ?? saved.reminderTimeZone;

  function save() {
    if (!reminderTimePattern.test(time)) {
      setErrors({ reminderTime: reminderMessages.reminderTime });
      return;
    }
    const body = {
      defaultReminderScheduleId: schedule === 'none' ? null : schedule,
      reminderTime: time,
      reminderTimeZone: zone.trim(),
    };
    update.mutate(body, {
      onSuccess: () => {
        setErrors({});
        setEdited({});
        notifications.show({ color: 'green', message: 'Reminder settings saved' });
      },
      onError: (error) => setErrors(runSettingsFailure(error, body)),
    });
  }

  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Daily run
        </Title>
        <Group align="flex-start" grow>
          <Select
            label="Default schedule"
            description="For accounts whose reminders are the company default"
            data={[
              { value: 'none', label: 'No default' },
              ...schedules.map((s) => ({ value: s.id, label: s.name })),
            ]}
            value={schedule}
            onChange={(value) => value && setEdited((e) => ({ ...e, schedule: value }))}
            allowDeselect={false}
            disabled={!canEdit}
            error={errors.defaultReminderScheduleId}
          />
          <TextInput
            label="Time of the run"
            description="HH:MM, every day"
            value={time}
            onChange={(e) => setEdited((x) => ({ ...x, time: e.currentTarget.value }))}
            disabled={!canEdit}
            error={errors.reminderTime}
          />
          <TextInput
            label="Time zone"
            description="e.g. Europe/London"
            value={zone}
            onChange={(e) => setEdited((x) => ({ ...x, zone: e.currentTarget.value }))}
            disabled={!canEdit}
            error={errors.reminderTimeZone}
          />
        </Group>
        <Group justify="flex-end">
          <Button onClick={save} loading={update.isPending} disabled={!canEdit}>
            Save run settings
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Settings › Reminder Schedules — the schedules, the daily run, and what goes out tomorrow. */
export function ReminderSchedulesPage() {
  // The search box, answered by the server and kept in the address; the run's
  // settings still choose among every schedule.
  const grid = useGridState({ address: true });
  const search = grid.query.search ?? '';
  const all = useReminderSchedules();
  const schedules = useReminderSchedules(search);
  const remove = useDeleteReminderSchedule();
  const canEdit = usePermission('ConfigureSystemSettings');
  const [editing, setEditing] = useState<ReminderSchedule | 'new' | null>(null);

  const confirmDelete = (schedule: ReminderSchedule) =>
    confirmDestructive({
      title: 'Delete Reminder Schedule',
      message: `Delete the reminder schedule ${schedule.name}?`,
      onConfirm: () =>
        remove.mutate(schedule.id, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: 'Reminder schedule deleted' }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage('The reminder schedule could not be deleted: ', error),
            }),
        }),
    });

  const list = [...(schedules.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Stack gap="lg">
      <PageHeader
        title="Reminder Schedules"
        description="Reminders of unpaid invoices, mailed once a day: one mail per account listing every invoice a step has reached, with the link to its statement."
        actions={
          <Button onClick={() => setEditing('new')} disabled={!canEdit}>
            New Reminder Schedule
          </Button>
        }
      />
      <GridToolbar grid={grid} listName="reminder schedules" placeholder="Name" />
      {schedules.isPending ? (
        <LoadingState label="Loading reminder schedules" />
      ) : schedules.isError ? (
        <Alert color="red">An error occurred loading the data</Alert>
      ) : list.length === 0 ? (
        <Text c="dimmed">
          {search ? 'No reminder schedules match the search.' : 'No reminder schedules yet.'}
        </Text>
      ) : (
        <WideTable>
          <Table striped highlightOnHover aria-label="Reminder schedules">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Steps (days from the due date)</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((schedule) => (
                <Table.Tr key={schedule.id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Text span>{schedule.name}</Text>
                      {schedule.isDefault && <Badge color="blue">Default</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td>{stepWords(schedule)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button
                        size="xs"
                        variant="subtle"
                        leftSection={<IconPencil size={14} />}
                        disabled={!canEdit}
                        onClick={() => setEditing(schedule)}
                        aria-label={`Edit ${schedule.name}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} />}
                        disabled={!canEdit}
                        onClick={() => confirmDelete(schedule)}
                        aria-label={`Delete ${schedule.name}`}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </WideTable>
      )}
      <RunSettings schedules={[...(all.data ?? [])].sort((a, b) => a.name.localeCompare(b.name))} />
      <ReminderPreview />
      {editing !== null ? (
        <ReminderScheduleDialog
          key={editing === 'new' ? 'new' : editing.id}
          schedule={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}
