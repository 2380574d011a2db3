import { z } from 'zod';
import { isCalendarDate } from './calendar-date.js';

/**
 * The aged receivables report. An account's debts aged by their due date (or, on the
 * TransactionDate basis, by the day they were raised) as of a calendar day, in one currency.
 */
export const agingBases = ['DueDate', 'TransactionDate'] as const;
export type AgingBasis = (typeof agingBases)[number];

/** The buckets of an aged receivables row, in their order on screen and in the CSV. */
export const agingBuckets = ['current', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
export type AgingBucket = (typeof agingBuckets)[number];

/** The report's sortable columns (`sort=-total` descending). */
export const agedReceivablesSortFields = [
  'accountReference',
  'name',
  ...agingBuckets,
  'total',
] as const;

export const reportMessages = {
  asOf: 'As of must be a date (YYYY-MM-DD).',
  basis: 'Basis must be DueDate or TransactionDate.',
  currency: 'Currency must be a three-letter ISO 4217 code.',
  format: 'Format must be json or csv.',
  sort: `Sort by one of ${agedReceivablesSortFields.join(', ')}, with - for descending.`,
  itemsPerPage: 'Items per page must be a whole number from 1 to 1000.',
  page: 'Page must be a whole number from 1.',
  months: 'Months must be a whole number from 1 to 24.',
} as const;

const sortPattern = new RegExp(`^-?(${agedReceivablesSortFields.join('|')})$`);

/** `GET reports/aged-receivables` query. */
export const agedReceivablesQuery = z.object({
  asOf: z
    .string({ message: reportMessages.asOf })
    .refine(isCalendarDate, reportMessages.asOf)
    .optional()
    .describe('The day the debts are aged at, YYYY-MM-DD; today (UTC) when absent.'),
  basis: z
    .enum(agingBases, { message: reportMessages.basis })
    .default('DueDate')
    .describe('DueDate (the default): days past due; TransactionDate: days since raised.'),
  currency: z
    .string({ message: reportMessages.currency })
    .regex(/^[A-Z]{3}$/, reportMessages.currency)
    .optional()
    .describe("The currency reported; the company's own when absent."),
  format: z.enum(['json', 'csv'], { message: reportMessages.format }).optional(),
  sort: z
    .string({ message: reportMessages.sort })
    .regex(sortPattern, reportMessages.sort)
    .default('-total'),
  page: z.coerce
    .number<string | number>({ message: reportMessages.page })
    .int(reportMessages.page)
    .min(1, reportMessages.page)
    .default(1),
  itemsPerPage: z.coerce
    .number<string | number>({ message: reportMessages.itemsPerPage })
    .int(reportMessages.itemsPerPage)
    .min(1, reportMessages.itemsPerPage)
    .max(1000, reportMessages.itemsPerPage)
    .default(100),
});
export type AgedReceivablesQuery = z.infer<typeof agedReceivablesQuery>;

const bucketAmounts = {
  current: z.number(),
  days1to30: z.number(),
  days31to60: z.number(),
  days61to90: z.number(),
  over90: z.number(),
  total: z.number(),
};

export const agedReceivablesRowSchema = z
  .object({
    accountId: z.uuid(),
    accountReference: z.string(),
    name: z.string(),
    ...bucketAmounts,
  })
  .meta({ id: 'AgedReceivablesRow' });
export type AgedReceivablesRow = z.infer<typeof agedReceivablesRowSchema>;

export const agedReceivablesTotalsSchema = z
  .object(bucketAmounts)
  .meta({ id: 'AgedReceivablesTotals' });
export type AgedReceivablesTotals = z.infer<typeof agedReceivablesTotalsSchema>;

export const agedReceivablesSchema = z
  .object({
    asOf: z.iso.date(),
    basis: z.enum(agingBases),
    currency: z.string(),
    /** Every currency the company has debts in as of the day, for the currency picker. */
    currencies: z.array(z.string()),
    items: z.array(agedReceivablesRowSchema),
    /** Accounts owing or owed something as of the day (every page). */
    totalItems: z.number().int(),
    /** The company's totals over every account, not only this page. */
    totals: agedReceivablesTotalsSchema,
  })
  .meta({ id: 'AgedReceivables' });
export type AgedReceivables = z.infer<typeof agedReceivablesSchema>;

/** `GET dashboard/figures` query. */
export const dashboardFiguresQuery = z.object({
  months: z.coerce
    .number<string | number>({ message: reportMessages.months })
    .int(reportMessages.months)
    .min(1, reportMessages.months)
    .max(24, reportMessages.months)
    .default(12)
    .describe('How many calendar months the chart covers, this one included (1–24, default 12).'),
  currency: z
    .string({ message: reportMessages.currency })
    .regex(/^[A-Z]{3}$/, reportMessages.currency)
    .optional(),
});
export type DashboardFiguresQuery = z.infer<typeof dashboardFiguresQuery>;

export const dashboardMonthSchema = z.object({
  /** The calendar month, YYYY-MM. */
  month: z.string(),
  /** Money allocated to invoices and accounts in the month. */
  collected: z.number(),
  /** Invoices (and balance-increasing transactions) whose due day is in the month. */
  fallingDue: z.number(),
});
export type DashboardMonth = z.infer<typeof dashboardMonthSchema>;

export const dashboardFiguresSchema = z
  .object({
    asOf: z.iso.date(),
    currency: z.string(),
    /** What the accounts owe today, net of credit notes (the aged report's total). */
    outstanding: z.number(),
    /** What of it is past its due day (the aged report's 1–30 … over 90 on the DueDate basis). */
    overdue: z.number(),
    /** Invoices past due with something still owed. */
    overdueInvoices: z.number().int(),
    /** Payment attempts that failed (Failed, Rejected, NotAuthorised) in the period, and their amount. */
    failedPayments: z.number().int(),
    failedAmount: z.number(),
    /** Days sales outstanding by the countback method; null when nothing was sold in the window. */
    dso: z.number().nullable(),
    months: z.array(dashboardMonthSchema),
  })
  .meta({ id: 'DashboardFigures' });
export type DashboardFigures = z.infer<typeof dashboardFiguresSchema>;
