import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { accountLimits, accountMessages, optionalAccountText } from './accounts.js';

/** spec 2 §3 Payer details. */
export const payerDetailsSchema = z
  .object({
    companyName: z.string().nullable(),
    firstNames: z.string().nullable(),
    surname: z.string().nullable(),
    emailAddress: z.string().nullable(),
    address1: z.string().nullable(),
    address2: z.string().nullable(),
    address3: z.string().nullable(),
    address4: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    postCode: z.string().nullable(),
    country: z.string().nullable(),
  })
  .meta({ id: 'PayerDetails' });
export type PayerDetails = z.infer<typeof payerDetailsSchema>;

/** spec 2 §3 Payer: someone who paid on an account. */
export const payerSchema = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    createdOn: z.iso.datetime(),
    details: payerDetailsSchema,
  })
  .meta({ id: 'Payer' });
export type Payer = z.infer<typeof payerSchema>;

export const payerMessages = {
  identityRequired: 'A payer needs a company name, a first name, a surname or an email address.',
  emailAddressInvalid: 'Email address must be a valid email address, e.g. jo@example.com.',
} as const;

const text = (label: string) => optionalAccountText(accountLimits.text.max, label);

/** POST accounts/{id}/payers (ERP connectors). Limits: spec 2 §5 "Contact edit". */
export const createPayerBody = z
  .object({
    companyName: optionalAccountText(accountLimits.companyName.max, 'Company name'),
    firstNames: text('First names'),
    surname: text('Surname'),
    emailAddress: z
      .string({ message: payerMessages.emailAddressInvalid })
      .trim()
      .max(accountLimits.emailAddress.max, accountMessages.emailAddressTooLong)
      .pipe(z.union([z.literal(''), z.email({ message: payerMessages.emailAddressInvalid })]))
      .nullish()
      .transform((value) => (value ? value : null)),
    address1: text('Address 1'),
    address2: text('Address 2'),
    address3: text('Address 3'),
    address4: text('Address 4'),
    city: text('City'),
    state: text('State'),
    postCode: text('Post code'),
    country: text('Country'),
  })
  .superRefine((value, ctx) => {
    if (!value.companyName && !value.firstNames && !value.surname && !value.emailAddress) {
      ctx.addIssue({
        code: 'custom',
        path: ['companyName'],
        message: payerMessages.identityRequired,
      });
    }
  })
  .meta({
    id: 'CreatePayer',
    examples: [
      {
        companyName: 'Acme Widgets Ltd',
        firstNames: 'Jo',
        surname: 'Bloggs',
        emailAddress: 'jo.bloggs@acme.example',
        address1: '1 Mill Lane',
        city: 'Leeds',
        postCode: 'LS1 4AB',
        country: 'United Kingdom',
      },
    ],
  });
export type CreatePayerBody = z.input<typeof createPayerBody>;
export type CreatePayerInput = z.output<typeof createPayerBody>;

export const accountPayerParams = z.object({ id: z.uuid(), payerId: z.uuid() });

/** spec 2 §2 Payers tab; spec 2 §9: default sort created date descending. */
export const payerQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    createdOn: { type: 'date', sortable: true, filterable: true },
    companyName: { type: 'string', sortable: true, filterable: true },
    firstNames: { type: 'string', sortable: true, filterable: true },
    surname: { type: 'string', sortable: true, filterable: true },
    emailAddress: { type: 'string', sortable: true, filterable: true },
    postCode: { type: 'string', sortable: true, filterable: true },
    city: { type: 'string', sortable: true, filterable: true },
    country: { type: 'string', sortable: true, filterable: true },
  },
  {
    defaultSort: '-createdOn',
    search: { text: ['companyName', 'firstNames', 'surname', 'emailAddress', 'postCode'] },
  },
);
