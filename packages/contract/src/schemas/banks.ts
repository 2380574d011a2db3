import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { currencies } from '../reference/currencies.js';

/** spec 2 §3 Bank: a bank account of the company, pushed by its ERP connector. */
export const bankSchema = z
  .object({
    id: z.uuid(),
    accountName: z.string(),
    currency: z.string(),
    description: z.string().nullable(),
    accountNumber: z.string().nullable(),
    sortCode: z.string().nullable(),
    iban: z.string().nullable(),
    bankName: z.string().nullable(),
    source: z.string().nullable(),
    createdOn: z.iso.datetime(),
  })
  .meta({ id: 'Bank' });
export type Bank = z.infer<typeof bankSchema>;

/**
 * Limits of the bank body. spec 2 leaves the payload shape open ("not shown"); these are our
 * choices, listed in docs/api.md.
 */
export const bankLimits = {
  accountName: { min: 1, max: 255 },
  description: { max: 1000 },
  bankName: { max: 255 },
  source: { max: 100 },
  accountNumberDigits: { min: 4, max: 17 },
  ibanLength: { min: 15, max: 34 },
} as const;

export const bankMessages = {
  accountNameRequired: 'Account name is required.',
  accountNameTooLong: `Account name must be at most ${bankLimits.accountName.max} characters.`,
  currencyRequired: 'Currency is required.',
  currencyFormat: 'Currency must be three capital letters, e.g. GBP.',
  currencyUnknown: 'Currency must be an ISO 4217 currency code, e.g. GBP.',
  descriptionTooLong: `Description must be at most ${bankLimits.description.max} characters.`,
  bankNameTooLong: `Bank name must be at most ${bankLimits.bankName.max} characters.`,
  sourceTooLong: `Source must be at most ${bankLimits.source.max} characters.`,
  accountNumberFormat: `Account number must be ${bankLimits.accountNumberDigits.min} to ${bankLimits.accountNumberDigits.max} digits.`,
  sortCodeFormat: 'Sort code must be six digits, e.g. 12-34-56.',
  ibanFormat:
    'IBAN must be a two-letter country code, two check digits and 11 to 30 letters or digits, e.g. GB82 WEST 1234 5698 7654 32.',
  ibanChecksum: 'IBAN check digits do not match; check the IBAN for typing mistakes.',
  idRequired: 'Id must be the id (a UUID) of a bank of this company.',
} as const;

const isoCurrencyCodes: ReadonlySet<string> = new Set(currencies.map((currency) => currency.code));

/** Separators people type inside account numbers, sort codes and IBANs. */
const separators = /[\s-]/g;

/** Trimmed; empty or absent becomes null. */
const optionalText = (max: number, label: string, tooLong: string) =>
  z
    .string({ message: `${label} must be text.` })
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((value) => (value ? value : null));

/** An optional code: trimmed, checked by `check` (which gets it without separators), normalised. */
const optionalCode = (
  label: string,
  check: (compact: string, ctx: z.RefinementCtx) => void,
  normalise: (compact: string) => string,
) =>
  z
    .string({ message: `${label} must be text.` })
    .trim()
    .max(100, `${label} must be at most 100 characters.`)
    .superRefine((value, ctx) => {
      if (value !== '') check(value.replace(separators, '').toUpperCase(), ctx);
    })
    .nullish()
    .transform((value) => (value ? normalise(value.replace(separators, '').toUpperCase()) : null));

/** ISO 13616 check: move the first four characters to the end, letters to 10..35, mod 97 is 1. */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const ibanPattern = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** The IBAN in its print format, groups of four: 'GB82 WEST 1234 5698 7654 32'. */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The fields of a bank as an ERP connector sends them (spec 2 §7 POST/PUT banks). Text is
 * trimmed; the account number, sort code and IBAN may carry spaces or hyphens and are stored
 * compact (IBAN upper case), the sort code as 12-34-56.
 */
const bankFields = {
  accountName: z
    .string({ message: bankMessages.accountNameRequired })
    .trim()
    .min(bankLimits.accountName.min, bankMessages.accountNameRequired)
    .max(bankLimits.accountName.max, bankMessages.accountNameTooLong),
  currency: z
    .string({ message: bankMessages.currencyRequired })
    .trim()
    .min(1, bankMessages.currencyRequired)
    .superRefine((value, ctx) => {
      if (value === '') return;
      if (!/^[A-Z]{3}$/.test(value))
        ctx.addIssue({ code: 'custom', message: bankMessages.currencyFormat });
      else if (!isoCurrencyCodes.has(value))
        ctx.addIssue({ code: 'custom', message: bankMessages.currencyUnknown });
    })
    .describe('ISO 4217 code in capitals, e.g. GBP.'),
  description: optionalText(
    bankLimits.description.max,
    'Description',
    bankMessages.descriptionTooLong,
  ),
  accountNumber: optionalCode(
    'Account number',
    (compact, ctx) => {
      const { min, max } = bankLimits.accountNumberDigits;
      if (!new RegExp(`^\\d{${min},${max}}$`).test(compact)) {
        ctx.addIssue({ code: 'custom', message: bankMessages.accountNumberFormat });
      }
    },
    (compact) => compact,
  ).describe('4 to 17 digits; spaces and hyphens are removed.'),
  sortCode: optionalCode(
    'Sort code',
    (compact, ctx) => {
      if (!/^\d{6}$/.test(compact))
        ctx.addIssue({ code: 'custom', message: bankMessages.sortCodeFormat });
    },
    (compact) => `${compact.slice(0, 2)}-${compact.slice(2, 4)}-${compact.slice(4)}`,
  ).describe('Six digits, with or without separators; stored as 12-34-56.'),
  iban: optionalCode(
    'IBAN',
    (compact, ctx) => {
      if (!ibanPattern.test(compact))
        ctx.addIssue({ code: 'custom', message: bankMessages.ibanFormat });
      else if (!ibanChecksumValid(compact))
        ctx.addIssue({ code: 'custom', message: bankMessages.ibanChecksum });
    },
    (compact) => compact,
  ).describe('ISO 13616 IBAN, check digits verified; spaces removed and letters capitalised.'),
  bankName: optionalText(bankLimits.bankName.max, 'Bank name', bankMessages.bankNameTooLong),
  source: optionalText(bankLimits.source.max, 'Source', bankMessages.sourceTooLong).describe(
    'Where the record comes from, e.g. the ERP system.',
  ),
};

const bankExample = {
  accountName: 'Ledgerline Trading Ltd',
  currency: 'GBP',
  description: 'Main receipts account',
  accountNumber: '31926819',
  sortCode: '60-16-13',
  iban: 'GB29NWBK60161331926819',
  bankName: 'NatWest',
  source: 'Sage 200',
};

export const createBankBody = z
  .object(bankFields)
  .meta({ id: 'CreateBank', examples: [bankExample] });
export type CreateBankBody = z.input<typeof createBankBody>;
export type CreateBankInput = z.output<typeof createBankBody>;

/** PUT banks replaces every field of the bank whose id the body carries. */
export const updateBankBody = z
  .object({ id: z.uuid({ message: bankMessages.idRequired }), ...bankFields })
  .meta({
    id: 'UpdateBank',
    examples: [{ id: '0199f0aa-0000-7000-8000-0000000000b7', ...bankExample }],
  });
export type UpdateBankBody = z.input<typeof updateBankBody>;
export type UpdateBankInput = z.output<typeof updateBankBody>;

/** spec 2 §2 Banks: every column filters; spec 2 §9: default sort account name ascending. */
export const bankQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    accountName: { type: 'string', sortable: true, filterable: true },
    currency: { type: 'string', sortable: true, filterable: true },
    description: { type: 'string', sortable: true, filterable: true },
    accountNumber: { type: 'string', sortable: true, filterable: true },
    sortCode: { type: 'string', sortable: true, filterable: true },
    iban: { type: 'string', sortable: true, filterable: true },
    bankName: { type: 'string', sortable: true, filterable: true },
    source: { type: 'string', sortable: true, filterable: true },
    createdOn: { type: 'date', sortable: true, filterable: true },
  },
  {
    defaultSort: 'accountName',
    search: { text: ['accountName', 'bankName', 'description', 'accountNumber', 'sortCode', 'iban'] },
  },
);
