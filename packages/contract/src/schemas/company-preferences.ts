import { z } from 'zod';

/**
 * spec 3 §3 Company preferences, the part the money rules need: the default settlement group
 * and the default late-payment configuration. The company-settings area extends this body.
 */
export const companyPreferencesSchema = z
  .object({
    defaultSettlementConfigurationGroupId: z.uuid().nullable(),
    defaultLatePaymentConfigurationId: z.uuid().nullable(),
  })
  .meta({ id: 'CompanyPreferences' });
export type CompanyPreferences = z.infer<typeof companyPreferencesSchema>;

/** PUT replaces the fields it carries; an absent field stays as it is. */
export const updateCompanyPreferencesBody = z
  .object({
    defaultSettlementConfigurationGroupId: z.uuid().nullish(),
    defaultLatePaymentConfigurationId: z.uuid().nullish(),
  })
  .meta({ id: 'UpdateCompanyPreferences' });
export type UpdateCompanyPreferencesBody = z.input<typeof updateCompanyPreferencesBody>;

export const companyPreferencesMessages = {
  groupNotFound: 'No settlement configuration group of this company has this id',
  latePaymentNotFound: 'No late payment configuration of this company has this id',
} as const;
