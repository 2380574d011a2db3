import { z } from 'zod';
import { paymentProviderNames } from './payment-provider-types.js';

/** spec 3 §5, §9 company limits; spec 1 §9 the logo's size and types. */
export const companyDetailsLimits = {
  companyName: 100,
  firstNames: 100,
  surname: 100,
  email: 500,
  telephone: 100,
  website: 100,
  taxCode: 50,
  address: 100,
  city: 100,
  state: 100,
  postCode: 100,
  country: 100,
} as const;
export const logoLimits = { minBytes: 50, maxBytes: 4_194_304 } as const;
export const logoTypes = ['image/jpeg', 'image/png', 'image/svg+xml'] as const;
/** spec 1 §5: the file name's extension, compared case-insensitively. */
export const logoExtensions = ['jpg', 'jpeg', 'png', 'svg'] as const;

export const companyDetailsMessages = {
  // spec 3 §5 quotes only the website's message; the others follow its style.
  companyNameRequired: 'Company name is required',
  companyNameTooLong: 'Company name must be at most 100 characters',
  firstNamesRequired: 'First names are required',
  firstNamesTooLong: 'First names must be at most 100 characters',
  surnameRequired: 'Surname is required',
  surnameTooLong: 'Surname must be at most 100 characters',
  emailRequired: 'Email is required',
  emailInvalid: 'Email must be a valid email address',
  emailTooLong: 'Email must be at most 500 characters',
  telephoneTooLong: 'Telephone must be at most 100 characters',
  website: 'Website must be a valid URL and begin with https://',
  websiteTooLong: 'Website must be at most 100 characters',
  taxCodeTooLong: 'Tax code must be at most 50 characters',
  address1Required: 'Address line 1 is required',
  address1TooLong: 'Address line 1 must be at most 100 characters',
  address2TooLong: 'Address line 2 must be at most 100 characters',
  cityRequired: 'City is required',
  cityTooLong: 'City must be at most 100 characters',
  stateRequired: 'State is required',
  stateTooLong: 'State must be at most 100 characters',
  postCodeRequired: 'Post code is required',
  postCodeTooLong: 'Post code must be at most 100 characters',
  countryRequired: 'Country is required',
  countryTooLong: 'Country must be at most 100 characters',
} as const;

export const logoMessages = {
  required: 'Choose a logo file (field imageFile).',
  type: 'The logo must be a JPEG, PNG or SVG image.',
  // spec 1 §5, word for word.
  tooSmall: `File size is too small, minimum allowed ${logoLimits.minBytes} bytes`,
  tooLarge: `File size is too large, maximum allowed ${logoLimits.maxBytes} bytes`,
  invalidExtension: 'Invalid file extension.',
  unsupportedExtension: (extension: string) =>
    `File with the extension ${extension} is not supported.`,
  oneFileAtATime: 'Upload one logo at a time.',
  malformed: 'The upload could not be read; send multipart/form-data with the field imageFile.',
  svgUnsafe: 'The SVG logo could not be read as an image.',
  notFound: 'The company has no logo.',
} as const;

/**
 * spec 1 §5 logo rules on the file's name and size, checked by the site before it uploads and by
 * the server again (which also reads the bytes): the spec's message, or null when the file passes.
 * {ext} is the extension as the file name spells it, without the dot (docs/decisions/124-spec-1-row-by-row-logo-rules-user-update-body-to.md).
 */
export function logoFileProblem(file: { name: string; size: number }): string | null {
  if (file.size < logoLimits.minBytes) return logoMessages.tooSmall;
  if (file.size > logoLimits.maxBytes) return logoMessages.tooLarge;
  const dot = file.name.lastIndexOf('.');
  const extension = dot < 0 ? '' : file.name.slice(dot + 1).trim();
  if (extension === '') return logoMessages.invalidExtension;
  const known = (logoExtensions as readonly string[]).includes(extension.toLowerCase());
  return known ? null : logoMessages.unsupportedExtension(extension);
}

const m = companyDetailsMessages;
const required = (max: number, requiredMessage: string, tooLong: string) =>
  z.string({ message: requiredMessage }).trim().min(1, requiredMessage).max(max, tooLong);
/** Empty text is no value. */
const optional = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((value) => (value ? value : null));

const website = z
  .string()
  .trim()
  .max(companyDetailsLimits.website, m.websiteTooLong)
  .refine((value) => value === '' || isHttpsUrl(value), m.website)
  .nullish()
  .transform((value) => (value ? value : null));

/** 'https://', a host name with a dot (or localhost) and an optional port, path, query. */
export function isHttpsUrl(value: string): boolean {
  return (
    /^https:\/\/([a-z0-9-]+\.)+[a-z0-9-]+(:\d{1,5})?([/?#]\S*)?$/i.test(value) ||
    /^https:\/\/localhost(:\d{1,5})?([/?#]\S*)?$/i.test(value)
  );
}

export const mainAddressSchema = z.object({
  firstNames: required(companyDetailsLimits.firstNames, m.firstNamesRequired, m.firstNamesTooLong),
  surname: required(companyDetailsLimits.surname, m.surnameRequired, m.surnameTooLong),
  email: z
    .string({ message: m.emailRequired })
    .trim()
    .min(1, m.emailRequired)
    .max(companyDetailsLimits.email, m.emailTooLong)
    .pipe(z.email({ pattern: z.regexes.unicodeEmail, message: m.emailInvalid })),
  telephone: optional(companyDetailsLimits.telephone, m.telephoneTooLong),
  address1: required(companyDetailsLimits.address, m.address1Required, m.address1TooLong),
  address2: optional(companyDetailsLimits.address, m.address2TooLong),
  city: required(companyDetailsLimits.city, m.cityRequired, m.cityTooLong),
  state: required(companyDetailsLimits.state, m.stateRequired, m.stateTooLong),
  postCode: required(companyDetailsLimits.postCode, m.postCodeRequired, m.postCodeTooLong),
  country: required(companyDetailsLimits.country, m.countryRequired, m.countryTooLong),
});

/** PUT company-settings: the company details (spec 3 §5). */
export const updateCompanySettingsBody = z
  .object({
    companyDetails: z.object({
      name: required(companyDetailsLimits.companyName, m.companyNameRequired, m.companyNameTooLong),
      website,
      taxCode: optional(companyDetailsLimits.taxCode, m.taxCodeTooLong),
      mainAddress: mainAddressSchema,
    }),
  })
  .meta({ id: 'UpdateCompanySettings' });
export type UpdateCompanySettingsBody = z.input<typeof updateCompanySettingsBody>;

const mainAddressOut = z.object({
  firstNames: z.string(),
  surname: z.string(),
  email: z.string(),
  telephone: z.string().nullable(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  postCode: z.string(),
  country: z.string(),
});

/** GET company-settings (spec 3 §3 Company settings); companyDetails is null until saved once. */
export const companySettingsSchema = z
  .object({
    /** The company's (dataset's) own name. */
    name: z.string(),
    companyDetails: z
      .object({
        name: z.string(),
        website: z.string().nullable(),
        taxCode: z.string().nullable(),
        /** GET company-settings/logo with the Dataset-Id header, or null without a logo. */
        logoUrl: z.string().nullable(),
        mainAddress: mainAddressOut,
      })
      .nullable(),
    /** The logo's address even before the details are saved, so the header can show it. */
    logoUrl: z.string().nullable(),
    /**
     * spec 1 §3, spec 3 §3: the company's default payment provider configuration, in short (no
     * settings or credentials), or null while none is the default (docs/decisions/124-spec-1-row-by-row-logo-rules-user-update-body-to.md). Changed
     * through PUT company-settings/payment-provider.
     */
    paymentProvider: z
      .object({
        id: z.uuid(),
        providerName: z.enum(paymentProviderNames),
        name: z.string(),
        enabled: z.boolean(),
        isTest: z.boolean(),
      })
      .nullable(),
  })
  .meta({ id: 'CompanySettings' });
export type CompanySettings = z.infer<typeof companySettingsSchema>;

/** GET company-settings/account-info: who the company belongs to (the embedded view's tenantId check). */
export const accountInfoSchema = z
  .object({
    tenantId: z.uuid(),
    tenantName: z.string(),
    datasetId: z.number().int(),
    datasetName: z.string(),
    currency: z.string(),
    type: z.string(),
  })
  .meta({ id: 'AccountInfo' });
export type AccountInfo = z.infer<typeof accountInfoSchema>;

export const logoSchema = z
  .object({
    logoUrl: z.string(),
    fileName: z.string(),
    fileType: z.enum(logoTypes),
    fileSize: z.number().int(),
  })
  .meta({ id: 'CompanyLogo' });
export type CompanyLogo = z.infer<typeof logoSchema>;
