import {
  exampleDate,
  longDateFormats,
  messages,
  shortDateFormats,
  timeZones,
  userSettingSchema,
  type UserSetting,
} from '@ledgerline/contract';
import {
  Button,
  Card,
  Group,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { format } from 'date-fns';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { problemFieldErrors } from '@/ui/form-errors';
import { datePattern } from '@/ui/format';
import { useUpdateMySettings } from '../api/update-my-settings';

const timeZoneOptions = timeZones.map((zone) => ({ value: zone.id, label: zone.displayName }));

/** Each format with the example date written in it (spec 2 §2: 8 April 2020 15:30). */
const formatOptions = (formats: readonly string[]) =>
  formats.map((pattern) => ({
    value: pattern,
    label: `${format(exampleDate, pattern)}  (${pattern})`,
  }));
const shortFormatOptions = formatOptions(shortDateFormats);
const longFormatOptions = formatOptions(longDateFormats);

/** A date and time written in the formats chosen, as they change. */
function DateExample({ values }: { values: UserSetting }) {
  const shortExample = format(exampleDate, datePattern(values, { time: true }));
  const longExample = format(exampleDate, datePattern(values, { long: true, time: true }));
  return (
    <Card withBorder={false} bg="var(--mantine-color-default-hover)" p="sm" aria-live="polite">
      <Text size="sm" fw={500}>
        Example
      </Text>
      <Text size="sm" data-testid="short-example">
        {shortExample}
      </Text>
      <Text size="sm" data-testid="long-example">
        {longExample}
      </Text>
    </Card>
  );
}

/** spec 2 §2 /my-settings, editable part. */
export function UserSettingsForm({ setting }: { setting: UserSetting }) {
  const form = useForm<UserSetting>({
    mode: 'controlled',
    initialValues: setting,
    validate: zod4Resolver(userSettingSchema),
  });
  const update = useUpdateMySettings();

  const save = form.onSubmit((values) =>
    update.mutate(values, {
      onSuccess: (saved) => {
        form.setInitialValues(saved);
        form.setValues(saved);
        form.resetDirty(saved);
        notifications.show({ color: 'green', message: messages.userSettingsUpdated });
      },
      onError: (error) => {
        form.setErrors(problemFieldErrors(error, { fields: form.getValues() }));
        notifications.show({ color: 'red', message: messages.userSettingsUpdateFailed });
      },
    }),
  );

  const { values } = form;

  return (
    <Card component="form" onSubmit={save} noValidate aria-label="Display settings">
      <Title order={3} size="h4" mb="md">
        Display settings
      </Title>
      <Stack gap="md">
        <Select
          label="Time zone"
          data={timeZoneOptions}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No time zone matches"
          maxDropdownHeight={320}
          {...form.getInputProps('timeZoneId')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label="Short date format"
            data={shortFormatOptions}
            allowDeselect={false}
            {...form.getInputProps('shortDateFormat')}
          />
          <Select
            label="Long date format"
            data={longFormatOptions}
            allowDeselect={false}
            {...form.getInputProps('longDateFormat')}
          />
        </SimpleGrid>
        <Switch label="24-hour clock" {...form.getInputProps('use24Hour', { type: 'checkbox' })} />
        <DateExample values={values} />
        <Radio.Group
          label="Show advanced information"
          value={values.showAdvancedInfo ? 'enabled' : 'disabled'}
          onChange={(value) => form.setFieldValue('showAdvancedInfo', value === 'enabled')}
          error={form.errors.showAdvancedInfo}
        >
          <Group mt="xs">
            <Radio value="enabled" label="Enabled" />
            <Radio value="disabled" label="Disabled" />
          </Group>
        </Radio.Group>
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={update.isPending}
            leftSection={<IconDeviceFloppy size={16} />}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
