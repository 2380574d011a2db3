import {
  reminderLimits,
  reminderPlaceholders,
  reminderScheduleBody,
  type ReminderSchedule,
} from '@ledgerline/contract';
import {
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useSaveReminderSchedule } from '../api/save-reminder-schedule';

interface StepValues {
  id?: string;
  days: number | string;
  subject: string;
  body: string;
}

const newStep = (days: number): StepValues => ({
  days,
  subject: 'Invoices overdue: {company}',
  body: 'Dear {account},\n\nThese invoices are due:\n\n{invoiceTable}\n\nTotal owed: {totalOwed} (late fees {lateFees}).\n\nView your statement and pay: {statementLink}',
});

const placeholderHelp = reminderPlaceholders.map((name) => `{${name}}`).join(' ');

/** Create or edit a reminder schedule, its steps and their templates. */
export function ReminderScheduleDialog({
  schedule,
  opened,
  onClose,
}: {
  /** null: a new schedule. */
  schedule: ReminderSchedule | null;
  opened: boolean;
  onClose: () => void;
}) {
  const [name, setName] = useState(schedule?.name ?? '');
  const [steps, setSteps] = useState<StepValues[]>(
    schedule ? schedule.steps.map((step) => ({ ...step })) : [newStep(1)],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveReminderSchedule();

  const setStep = (index: number, change: Partial<StepValues>) =>
    setSteps((current) => current.map((step, i) => (i === index ? { ...step, ...change } : step)));

  function submit() {
    const body = {
      name,
      steps: steps.map((step) => ({
        ...(step.id ? { id: step.id } : {}),
        days: typeof step.days === 'number' ? step.days : Number.NaN,
        subject: step.subject,
        body: step.body,
      })),
    };
    const parsed = reminderScheduleBody.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const path = issue.path.join('.');
        found[path] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(
      { id: schedule?.id ?? null, body },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            message: schedule ? 'Reminder schedule saved' : 'Reminder schedule created',
          });
          onClose();
        },
        onError: (error) => {
          const fields = problemFieldErrors(error, { fields: body });
          setErrors(fields);
          if (Object.keys(fields).length === 0)
            notifications.show({
              color: 'red',
              message: failureMessage('The reminder schedule could not be saved', error),
            });
        },
      },
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={schedule ? 'Edit Reminder Schedule' : 'New Reminder Schedule'}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      <Stack gap="md">
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          maxLength={reminderLimits.name.max}
        />
        <Text size="sm" c="dimmed">
          Each step falls a number of days before (negative) or after (positive) an invoice&apos;s
          due date. Placeholders: {placeholderHelp}
        </Text>
        {errors.steps ? (
          <Text c="red" size="sm">
            {errors.steps}
          </Text>
        ) : null}
        {steps.map((step, index) => (
          <Card
            key={step.id ?? `new-${index}`}
            withBorder
            padding="sm"
            aria-label={`Step ${index + 1}`}
          >
            <Stack gap="xs">
              <Group align="flex-end">
                <NumberInput
                  label={`Step ${index + 1}: days from the due date`}
                  value={step.days}
                  onChange={(value) => setStep(index, { days: value })}
                  min={reminderLimits.days.min}
                  max={reminderLimits.days.max}
                  allowDecimal={false}
                  error={errors[`steps.${index}.days`]}
                  w={260}
                />
                <Button
                  variant="subtle"
                  color="red"
                  onClick={() => setSteps((current) => current.filter((_, i) => i !== index))}
                  disabled={steps.length === 1}
                >
                  Remove step {index + 1}
                </Button>
              </Group>
              <TextInput
                label={`Step ${index + 1} subject`}
                value={step.subject}
                onChange={(e) => setStep(index, { subject: e.currentTarget.value })}
                error={errors[`steps.${index}.subject`]}
              />
              <Textarea
                label={`Step ${index + 1} body`}
                autosize
                minRows={4}
                value={step.body}
                onChange={(e) => setStep(index, { body: e.currentTarget.value })}
                error={errors[`steps.${index}.body`]}
              />
            </Stack>
          </Card>
        ))}
        <Group justify="space-between">
          <Button
            variant="light"
            disabled={steps.length >= reminderLimits.steps.max}
            onClick={() =>
              setSteps((current) => [
                ...current,
                newStep(Math.max(0, ...current.map((s) => Number(s.days) || 0)) + 7),
              ])
            }
          >
            Add step
          </Button>
          <Group>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={submit} loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
