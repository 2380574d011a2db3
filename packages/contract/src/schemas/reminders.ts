import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { calendarDateSchema, isCalendarDate } from './calendar-date.js';

/**
 * Reminder schedules. A schedule is a name and steps; a step falls a number of days
 * before (negative) or after (positive) an invoice's due date and carries the mail's template.
 */
export const reminderPlaceholders = [
  'company',
  'account',
  'invoiceTable',
  'totalOwed',
  'lateFees',
  'statementLink',
] as const;
export type ReminderPlaceholder = (typeof reminderPlaceholders)[number];

export const reminderPlaceholderDescriptions: Record<ReminderPlaceholder, string> = {
  company: 'the company’s name',
  account: 'the account’s name',
  invoiceTable: 'the table of the invoices the mail is about',
  totalOwed: 'what those invoices owe today, late fees included',
  lateFees: 'the late-payment fees to date of those invoices',
  statementLink: 'the link to the account’s statement, where the payer pays',
};

export const reminderLimits = {
  name: { min: 1, max: 100 },
  steps: { min: 1, max: 10 },
  days: { min: -365, max: 365 },
  subject: { max: 200 },
  body: { max: 5000 },
} as const;

const placeholderList = reminderPlaceholders.map((name) => `{${name}}`).join(', ');

export const reminderMessages = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${reminderLimits.name.max} characters`,
  stepsRequired: 'A schedule needs at least one step',
  tooManySteps: `A schedule has at most ${reminderLimits.steps.max} steps`,
  days: `Days must be a whole number from ${reminderLimits.days.min} to ${reminderLimits.days.max}`,
  daysRepeated: 'Two steps cannot fall on the same day',
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject must be at most ${reminderLimits.subject.max} characters`,
  bodyRequired: 'Body is required',
  bodyTooLong: `Body must be at most ${reminderLimits.body.max} characters`,
  unknownPlaceholder: (name: string) => `Unknown placeholder {${name}}: use ${placeholderList}`,
  scheduleNotFound: 'No reminder schedule of this company has this id',
  scheduleInUse: 'This reminder schedule is in use',
  date: 'Date must be a day, YYYY-MM-DD',
  reminderTime: 'Reminder time must be HH:MM (24-hour clock)',
  reminderTimeZone: 'Reminder time zone must be a time zone such as Europe/London',
  reminderChoice: 'Reminders must be none, default or the id of a reminder schedule',
  booleanRequired: 'Paused must be true or false',
} as const;

/** The {names} a template uses that are not placeholders. */
export function unknownPlaceholders(template: string): string[] {
  const known: ReadonlySet<string> = new Set(reminderPlaceholders);
  return [...template.matchAll(/\{([^{}\s]*)\}/g)]
    .map((match) => match[1]!)
    .filter((name) => !known.has(name));
}

const template = (required: string, tooLong: string, max: number) =>
  z
    .string({ message: required })
    .trim()
    .min(1, required)
    .max(max, tooLong)
    .superRefine((value, ctx) => {
      const unknown = unknownPlaceholders(value)[0];
      if (unknown !== undefined)
        ctx.addIssue({ code: 'custom', message: reminderMessages.unknownPlaceholder(unknown) });
    });

export const reminderStepBody = z.object({
  /** Keep a step's id when editing it: a step already sent for an invoice is not sent again. */
  id: z.uuid().optional(),
  days: z
    .number({ message: reminderMessages.days })
    .int(reminderMessages.days)
    .min(reminderLimits.days.min, reminderMessages.days)
    .max(reminderLimits.days.max, reminderMessages.days),
  subject: template(
    reminderMessages.subjectRequired,
    reminderMessages.subjectTooLong,
    reminderLimits.subject.max,
  ),
  body: template(
    reminderMessages.bodyRequired,
    reminderMessages.bodyTooLong,
    reminderLimits.body.max,
  ),
});
export type ReminderStepBody = z.input<typeof reminderStepBody>;

export const reminderScheduleBody = z
  .object({
    name: z
      .string({ message: reminderMessages.nameRequired })
      .trim()
      .min(reminderLimits.name.min, reminderMessages.nameRequired)
      .max(reminderLimits.name.max, reminderMessages.nameTooLong),
    steps: z
      .array(reminderStepBody, { message: reminderMessages.stepsRequired })
      .min(reminderLimits.steps.min, reminderMessages.stepsRequired)
      .max(reminderLimits.steps.max, reminderMessages.tooManySteps),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<number>();
    body.steps.forEach((step, index) => {
      if (seen.has(step.days))
        ctx.addIssue({
          code: 'custom',
          path: ['steps', index, 'days'],
          message: reminderMessages.daysRepeated,
        });
      seen.add(step.days);
    });
  })
  .meta({ id: 'ReminderScheduleBody' });
export type ReminderScheduleBody = z.input<typeof reminderScheduleBody>;
export type ReminderScheduleInput = z.output<typeof reminderScheduleBody>;

export const reminderStepSchema = z
  .object({
    id: z.uuid(),
    days: z.number().int().describe('Days from the due date: negative before, positive after'),
    subject: z.string(),
    body: z.string(),
  })
  .meta({ id: 'ReminderStep' });
export type ReminderStep = z.infer<typeof reminderStepSchema>;

export const reminderScheduleSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    steps: z.array(reminderStepSchema).describe('Ordered by days'),
    isDefault: z.boolean(),
    createdOn: z.iso.datetime(),
    updatedOn: z.iso.datetime(),
  })
  .meta({ id: 'ReminderSchedule' });
export type ReminderSchedule = z.infer<typeof reminderScheduleSchema>;

export const reminderScheduleQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    name: { type: 'string', sortable: true, filterable: true },
  },
  { defaultSort: 'name', search: { text: ['name'] } },
);

/** An invoice a reminder lists. */
export const reminderInvoiceSchema = z
  .object({
    transactionId: z.uuid(),
    transactionReference: z.string(),
    dueDate: calendarDateSchema.nullable(),
    currency: z.string(),
    outstandingAmount: z.number(),
    lateFees: z.number(),
    stepId: z.uuid(),
    days: z.number().int(),
  })
  .meta({ id: 'ReminderInvoice' });
export type ReminderInvoice = z.infer<typeof reminderInvoiceSchema>;

export const reminderTotalSchema = z
  .object({ currency: z.string(), totalOwed: z.number(), lateFees: z.number() })
  .meta({ id: 'ReminderTotal' });

export const reminderSources = ['Schedule', 'SendNow'] as const;
export const reminderStatuses = ['Queued', 'Sending', 'Sent', 'Failed'] as const;

/** A reminder kept (GET accounts/{id}/reminders, the reminder.sent web hook). */
export const reminderSchema = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    scheduleId: z.uuid().nullable(),
    runOn: calendarDateSchema,
    source: z.enum(reminderSources),
    emailAddress: z.string(),
    subject: z.string(),
    body: z.string(),
    statementUrl: z.string().nullable(),
    invoices: z.array(reminderInvoiceSchema),
    totals: z.array(reminderTotalSchema),
    status: z.enum(reminderStatuses),
    errorMessage: z.string().nullable(),
    createdOn: z.iso.datetime(),
    sentOn: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Reminder' });
export type Reminder = z.infer<typeof reminderSchema>;

export const accountRemindersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  itemsPerPage: z.coerce.number().int().min(1).max(100).default(20),
});

const dayInput = z
  .string({ message: reminderMessages.date })
  .trim()
  .refine(isCalendarDate, reminderMessages.date);

/** GET reminders/preview: what the run of `date` (default: tomorrow in the company's zone) sends. */
export const reminderPreviewQuery = z.object({
  date: dayInput.optional(),
  page: z.coerce.number().int().min(1).default(1),
  itemsPerPage: z.coerce.number().int().min(1).max(1000).default(100),
});

export const reminderPreviewItemSchema = z
  .object({
    accountId: z.uuid(),
    accountReference: z.string(),
    accountName: z.string(),
    emailAddress: z.string().nullable(),
    scheduleId: z.uuid(),
    scheduleName: z.string(),
    subject: z.string(),
    invoices: z.array(reminderInvoiceSchema),
    totals: z.array(reminderTotalSchema),
  })
  .meta({ id: 'ReminderPreviewItem' });
export type ReminderPreviewItem = z.infer<typeof reminderPreviewItemSchema>;

export const reminderPreviewSchema = z
  .object({
    date: calendarDateSchema,
    customerNotificationsAllowed: z.boolean(),
    items: z.array(reminderPreviewItemSchema),
    totalItems: z.number().int(),
    /** Accounts with a mail due that is held back: a disputed amount, paused, or no e-mail address. */
    skipped: z.object({
      disputed: z.number().int(),
      paused: z.number().int(),
      noEmailAddress: z.number().int(),
    }),
  })
  .meta({ id: 'ReminderPreview' });
export type ReminderPreview = z.infer<typeof reminderPreviewSchema>;

export const runRemindersBody = z
  .object({
    date: dayInput.optional(),
    accountId: z.uuid({ message: 'Account id must be a UUID' }).optional(),
  })
  .meta({ id: 'RunReminders' });
export type RunRemindersBody = z.input<typeof runRemindersBody>;

export const reminderRunSchema = z
  .object({
    date: calendarDateSchema,
    customerNotificationsAllowed: z.boolean(),
    reminders: z.number().int().describe('Mails written to the outbox'),
    invoices: z.number().int(),
    reminderIds: z.array(z.uuid()).describe('The first 100 reminders written'),
  })
  .meta({ id: 'ReminderRun' });
export type ReminderRun = z.infer<typeof reminderRunSchema>;

/** The account's reminder choice (Settings tab): 'none', 'default' or a schedule id. */
export const accountReminderSettingsSchema = z
  .object({
    reminderSchedule: z.string().describe("'none', 'default' or a reminder schedule id"),
    remindersPaused: z.boolean(),
  })
  .meta({ id: 'AccountReminderSettings' });
export type AccountReminderSettings = z.infer<typeof accountReminderSettingsSchema>;

export const accountReminderSettingsBody = z
  .object({
    reminderSchedule: z
      .string({ message: reminderMessages.reminderChoice })
      .trim()
      .refine(
        (value) => value === 'none' || value === 'default' || z.uuid().safeParse(value).success,
        reminderMessages.reminderChoice,
      ),
    remindersPaused: z.boolean({ message: reminderMessages.booleanRequired }),
  })
  .meta({ id: 'AccountReminderSettingsUpdate' });
export type AccountReminderSettingsBody = z.input<typeof accountReminderSettingsBody>;

/** HH:MM, 00:00 to 23:59. */
export const reminderTimePattern = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Whether the runtime knows `zone` as an IANA time zone. */
export function isTimeZoneName(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone.length > 0 && zone.length <= 64;
  } catch {
    return false;
  }
}
