import {
  baseCurrencies,
  createDatasetBody,
  datasetResettableStatuses,
  updateDatasetBody,
  type CreateDatasetBody,
  type Dataset,
  type UpdateDatasetBody,
} from '@ledgerline/contract';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect } from 'react';
import { failureMessage, problemFieldErrors } from '@/ui/form-errors';
import { useCreateDataset } from '../api/create-dataset';
import { useDatasetsAll } from '@/lib/api/get-datasets-all';
import { useBaseCurrencies } from '../api/get-base-currencies';
import { useHostSystems } from '../api/get-host-systems';
import { useResetDataset } from '../api/reset-dataset';
import { useUpdateDataset } from '../api/update-dataset';
import { datasetErrorText, datasetMessages } from '../utils/dataset-errors';
import { nextFreeHostId } from '../utils/next-host-id';
import { ResetDemoDataButton } from './reset-demo-data-button';

/** Form values are the inputs' own: Selects hold strings ('0' is no company to copy from). */
interface CompanyFormValues {
  name: string;
  shortName: string;
  description: string;
  currency: string;
  hostSystemName: string;
  hostId: string;
  customHostId: string;
  copyFromDatasetId: string;
  hostDemoSystem: boolean;
}

const noCompany = '0';
const defaultCurrency = 'GBP';

function toCreateBody(values: CompanyFormValues): CreateDatasetBody {
  return {
    name: values.name,
    shortName: values.shortName,
    description: values.description,
    currency: values.currency as CreateDatasetBody['currency'],
    hostSystemName: values.hostSystemName as CreateDatasetBody['hostSystemName'],
    hostId: values.hostId,
    customHostId: values.customHostId,
    copyFromDatasetId: Number(values.copyFromDatasetId),
    hostDemoSystem: values.hostDemoSystem,
  };
}

function toUpdateBody(id: number, values: CompanyFormValues): UpdateDatasetBody {
  return {
    id,
    name: values.name,
    shortName: values.shortName,
    description: values.description,
    hostSystemName: values.hostSystemName as UpdateDatasetBody['hostSystemName'],
    hostId: values.hostId,
    customHostId: values.customHostId,
  };
}

const createResolver = zod4Resolver(createDatasetBody);
const updateResolver = zod4Resolver(updateDatasetBody);

function isResettable(dataset: Dataset): boolean {
  return (
    dataset.type === 'Demo' &&
    (datasetResettableStatuses as readonly string[]).includes(dataset.status)
  );
}

interface CompanyFormProps {
  /** The company edited; none to add one. */
  dataset?: Dataset;
  onDone: () => void;
}

function CompanyForm({ dataset, onDone }: CompanyFormProps) {
  const editing = dataset !== undefined;
  const companies = useDatasetsAll();
  const currencies = useBaseCurrencies();
  const hostSystems = useHostSystems();
  const create = useCreateDataset();
  const update = useUpdateDataset();
  const reset = useResetDataset();

  const form = useForm<CompanyFormValues>({
    mode: 'controlled',
    initialValues: {
      name: dataset?.name ?? '',
      shortName: dataset?.shortName ?? '',
      description: dataset?.description ?? '',
      currency: dataset?.currency ?? defaultCurrency,
      hostSystemName: dataset?.hostSystemName ?? '',
      hostId: dataset?.hostId ?? '',
      customHostId: dataset?.customHostId ?? '',
      copyFromDatasetId: noCompany,
      hostDemoSystem: false,
    },
    validate: (values) =>
      dataset
        ? updateResolver(toUpdateBody(dataset.id, values))
        : createResolver(toCreateBody(values)),
  });

  // spec 1 §2.7: a new company starts with the next free host id and the first host system.
  const { setFieldValue, getValues } = form;
  useEffect(() => {
    if (editing || !companies.data) return;
    const next = nextFreeHostId(companies.data);
    if (getValues().hostId === '') setFieldValue('hostId', next);
    if (getValues().customHostId === '') setFieldValue('customHostId', next);
  }, [editing, companies.data, getValues, setFieldValue]);
  useEffect(() => {
    const first = hostSystems.data?.[0];
    if (!editing && first && getValues().hostSystemName === '')
      setFieldValue('hostSystemName', first);
  }, [editing, hostSystems.data, getValues, setFieldValue]);

  const fail = (prefix: string) => (error: Error) => {
    form.setErrors(
      problemFieldErrors(error, { fields: form.getValues(), translate: datasetErrorText }),
    );
    notifications.show({ color: 'red', message: failureMessage(prefix, error) });
  };

  const submit = form.onSubmit((values) => {
    if (dataset) {
      update.mutate(updateDatasetBody.parse(toUpdateBody(dataset.id, values)), {
        onSuccess: () => {
          notifications.show({ color: 'green', message: datasetMessages.updated });
          onDone();
        },
        onError: fail(datasetMessages.updateFailed),
      });
      return;
    }
    create.mutate(createDatasetBody.parse(toCreateBody(values)), {
      onSuccess: () => {
        notifications.show({ color: 'green', message: datasetMessages.created });
        onDone();
      },
      onError: fail(datasetMessages.createFailed),
    });
  });

  const resetDemoData = (id: number) =>
    reset.mutate(id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: datasetMessages.resetting });
        onDone();
      },
      onError: (error) =>
        notifications.show({
          color: 'red',
          message: failureMessage(datasetMessages.resetFailed, error),
        }),
    });

  const copyFromOptions = [
    { value: noCompany, label: 'None' },
    ...(companies.data ?? []).map((company) => ({
      value: String(company.id),
      label: company.name,
    })),
  ];

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
        <TextInput label="Short name" {...form.getInputProps('shortName')} />
        <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
        {!editing && (
          <Select
            label="Currency"
            data={currencies.data ?? baseCurrencies}
            allowDeselect={false}
            required
            {...form.getInputProps('currency')}
          />
        )}
        <Select
          label="ERP host system"
          data={hostSystems.data ?? []}
          placeholder="Choose an ERP host system"
          allowDeselect={false}
          required
          {...form.getInputProps('hostSystemName')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="Host id" required {...form.getInputProps('hostId')} />
          <TextInput label="Custom host id" required {...form.getInputProps('customHostId')} />
        </SimpleGrid>
        {!editing && (
          <>
            <Select
              label="Copy from company"
              description="Start with the settings of an existing company."
              data={copyFromOptions}
              allowDeselect={false}
              {...form.getInputProps('copyFromDatasetId')}
            />
            <Checkbox
              label="Demo company"
              {...form.getInputProps('hostDemoSystem', { type: 'checkbox' })}
            />
            {form.values.hostDemoSystem && (
              <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Demo company">
                A demo company is filled with generated sample data, which can be reset to a fresh
                set at any time. This choice is permanent: a demo company cannot later become a
                normal company, so do not use it for real customers or payments.
              </Alert>
            )}
          </>
        )}
        {/* Save stays in view at the foot of the dialog while the form scrolls. */}
        <Group
          justify="space-between"
          gap="sm"
          pos="sticky"
          bottom={0}
          py="sm"
          bg="var(--mantine-color-body)"
          style={{ zIndex: 1 }}
          data-sticky-footer
        >
          <div>
            {dataset && isResettable(dataset) && (
              <ResetDemoDataButton
                loading={reset.isPending}
                onConfirm={() => resetDemoData(dataset.id)}
              />
            )}
          </div>
          <Group gap="sm">
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

interface CompanyFormDialogProps {
  opened: boolean;
  dataset?: Dataset;
  onClose: () => void;
}

/** spec 1 §2.7: the add-company and edit-company dialog. */
export function CompanyFormDialog({ opened, dataset, onClose }: CompanyFormDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={dataset ? 'Edit Company' : 'Add Company'}
      size="lg"
      centered
    >
      <CompanyForm dataset={dataset} onDone={onClose} />
    </Modal>
  );
}
