import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import {
  baseCurrencies,
  datasetStatuses,
  datasetTypes,
  hostSystems,
  rebuildStatuses,
} from '../enums.js';

/** spec 1 §3 Dataset (company). */
export const datasetSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    shortName: z.string().nullable(),
    description: z.string().nullable(),
    status: z.enum(datasetStatuses),
    hostId: z.string(),
    customHostId: z.string(),
    hostSystemName: z.enum(hostSystems),
    currency: z.enum(baseCurrencies),
    rebuildStatus: z.enum(rebuildStatuses),
    lastSync: z.iso.datetime().nullable(),
    copyFromDatasetId: z.number().int().nullable(),
    type: z.enum(datasetTypes),
  })
  .meta({ id: 'Dataset' });
export type Dataset = z.infer<typeof datasetSchema>;

/** Company ids are PostgreSQL integers; a larger number must be a 400, not a database error. */
const maxDatasetId = 2147483647;

export const datasetIdParam = z.object({ id: z.coerce.number().int().min(1).max(maxDatasetId) });

/** Host systems a user may choose; the default host system belongs to dataset 1 only (spec 1 §2.7). */
export const selectableHostSystems = ['Sage100', 'Sage200Pro', 'Custom'] as const;

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((v) => (v ? v : null));
const requiredText = (max: number, label: string) =>
  z
    .string({ message: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** spec 1 §5 dataset form: trimmed; name 1–100, short name ≤100, description ≤500, host ids 1–100. */
const datasetFields = {
  name: requiredText(100, 'Name'),
  shortName: optionalText(100, 'Short name'),
  description: optionalText(500, 'Description'),
  hostSystemName: z.enum(selectableHostSystems, { message: 'Choose an ERP host system.' }),
  hostId: requiredText(100, 'Host id'),
  customHostId: requiredText(100, 'Custom host id'),
};

const copyFromMessage = 'Choose a company to copy from, or none.';

export const createDatasetBody = z
  .object({
    ...datasetFields,
    currency: z.enum(baseCurrencies, { message: 'Choose a supported currency.' }).default('GBP'),
    /** 0 means none (spec 1 §2.7). */
    copyFromDatasetId: z
      .number({ message: copyFromMessage })
      .int(copyFromMessage)
      .min(0, copyFromMessage)
      .max(maxDatasetId, copyFromMessage)
      .nullish()
      .transform((v) => v ?? 0),
    hostDemoSystem: z.boolean({ message: 'Demo company must be true or false.' }).default(false),
  })
  .meta({ id: 'CreateDataset' });
export type CreateDatasetBody = z.input<typeof createDatasetBody>;

export const updateDatasetBody = z
  .object({
    id: z
      .number({ message: 'Choose a company.' })
      .int('Choose a company.')
      .min(1, 'Choose a company.')
      .max(maxDatasetId, 'Choose a company.'),
    ...datasetFields,
  })
  .meta({ id: 'UpdateDataset' });
export type UpdateDatasetBody = z.input<typeof updateDatasetBody>;

export const datasetQuery = defineQueryFields(
  {
    id: { type: 'number', sortable: true, filterable: true },
    name: { type: 'string', sortable: true, filterable: true },
    type: { type: 'enum', values: datasetTypes, sortable: true, filterable: true },
    hostSystemName: { type: 'enum', values: hostSystems, sortable: true, filterable: true },
    hostId: { type: 'string', sortable: true, filterable: true },
    customHostId: { type: 'string', sortable: true, filterable: true },
    currency: { type: 'enum', values: baseCurrencies, sortable: true, filterable: true },
    rebuildStatus: { type: 'enum', values: rebuildStatuses, sortable: true, filterable: true },
    status: { type: 'enum', values: datasetStatuses, sortable: true, filterable: true },
    lastSync: { type: 'date', sortable: true, filterable: true },
  },
  { defaultSort: 'id', search: { text: ['name', 'hostId', 'customHostId'], amount: 'id' } },
);

/** Edit and delete are possible only when a company is settled (spec 1 §2.7 status check). */
export const datasetEditableStatuses = ['Active', 'Inactive', 'Error'] as const;
/** Demo data can be reset only from these (spec 1 §2.7). */
export const datasetResettableStatuses = ['Active', 'Inactive'] as const;
