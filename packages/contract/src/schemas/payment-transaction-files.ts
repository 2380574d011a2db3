import { z } from 'zod';
import { allocatedStatuses, type AllocatedStatus } from './payment-transaction-statuses.js';

/** spec 2 §3 Export options */
export const exportTypes = ['PaymentsAndAllocations', 'Allocations'] as const;
export type ExportType = (typeof exportTypes)[number];

export const paymentTransactionMessages = {
  fromBeforeTo: 'From Date must be less than To Date',
  allocatedStatusUnknown: 'Choose allocated statuses from the list.',
} as const;

/**
 * GET payment-transactions/export (spec 2 §7). Dates are UTC midnights from the dialog; `toDate`
 * includes its whole day. `excludeAllocatedStatus` is a comma list of the statuses not ticked.
 */
export const exportQuerySchema = z
  .object({
    exportType: z
      .enum(exportTypes, { message: 'Choose an export type.' })
      .default('PaymentsAndAllocations'),
    fromDate: z.iso.datetime({ offset: true, message: 'From Date must be a date.' }).optional(),
    toDate: z.iso.datetime({ offset: true, message: 'To Date must be a date.' }).optional(),
    paymentProviderId: z.uuid({ message: 'Choose a payment provider.' }).optional(),
    excludeAllocatedStatus: z
      .string()
      .max(500)
      .optional()
      .transform((value, context) => {
        const items = (value ?? '')
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean);
        for (const item of items) {
          if (!(allocatedStatuses as readonly string[]).includes(item)) {
            context.addIssue({
              code: 'custom',
              message: paymentTransactionMessages.allocatedStatusUnknown,
            });
            return z.NEVER;
          }
        }
        return items as AllocatedStatus[];
      }),
    filter: z.string().max(4000).optional(),
    /** The list's search box, with "include table filters". */
    search: z.string().max(4000).optional(),
  })
  // spec 2 §5: the message is for a from later than to; from = to is that one whole day (to is inclusive).
  .refine(
    (query) =>
      !query.fromDate || !query.toDate || Date.parse(query.fromDate) <= Date.parse(query.toDate),
    {
      message: paymentTransactionMessages.fromBeforeTo,
      path: ['fromDate'],
    },
  );
export type ExportQuery = z.input<typeof exportQuerySchema>;

/** The columns of PaymentTransactions.csv, in order (docs/api.md). */
export const exportColumns = [
  'PaymentTransactionId',
  'Type',
  'Status',
  'AllocatedStatus',
  'Reference',
  'CreatedOn',
  'StatusDateTime',
  'Currency',
  'TotalAmount',
  'Fee',
  'FeeCurrency',
  'CustomerName',
  'CompanyName',
  'AccountId',
  'PaymentRequestId',
  'PaymentProvider',
  'PaymentProviderReference',
  'PaymentMethodType',
  'AllocationId',
  'AllocationType',
  'AllocationStatus',
  'AllocationEntityType',
  'AllocationTransactionId',
  'AllocationAccountId',
  'DiscountedAmount',
  'AllocatedAmount',
] as const;

/** spec 2 §3 Import result */
export const importStatuses = ['NotImported', 'Imported', 'Duplicate'] as const;
export const importResultStatuses = ['Error', 'Warning', 'Ok'] as const;

export const importResultSchema = z
  .object({
    processedCount: z.number().int(),
    importedCount: z.number().int(),
    notImportedCount: z.number().int(),
    duplicatedCount: z.number().int(),
    results: z.array(
      z.object({
        /** The id as the file gave it. */
        id: z.string(),
        /** The file's line number (the header is line 1). */
        line: z.number().int(),
        resultStatus: z.enum(importResultStatuses),
        importStatus: z.enum(importStatuses),
        allocatedStatus: z.string().nullable(),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.infer<typeof importResultSchema>;

/** The allocated-status import file (docs/api.md). */
export const importLimits = { maxBytes: 50 * 1024 * 1024, maxRows: 200_000 } as const;

/**
 * The template the import dialog offers: the two columns the import reads and
 * one example row, which the server reads like any file (payment-transactions.import.test.ts).
 */
export const importTemplate = {
  fileName: 'allocated-statuses-template.csv',
  text: 'PaymentTransactionId,AllocatedStatus\r\n0199f0aa-0000-7000-8000-000000000001,ManuallyAllocated\r\n',
} as const;

export const importMessages = {
  noFile: 'Choose a CSV file to import.',
  columns: 'The file needs the columns PaymentTransactionId and AllocatedStatus.',
  empty: 'The file has no rows to import.',
  tooManyRows: `The file has more than ${importLimits.maxRows.toLocaleString('en-GB')} rows; split it.`,
  tooLarge: `The file is larger than ${importLimits.maxBytes / 1024 / 1024} MB; split it.`,
  oneFileAtATime: 'Import one file at a time.',
  malformed: 'The upload could not be read: send the file as multipart/form-data.',
} as const;
