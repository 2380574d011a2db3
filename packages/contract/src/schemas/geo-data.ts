import { z } from 'zod';

/** spec 3 §3 Country; the id is the ISO 3166-1 numeric code (826 is GB). */
export const countrySchema = z
  .object({
    id: z.number().int(),
    displayName: z.string(),
    alpha2Code: z.string(),
    alpha3Code: z.string(),
  })
  .meta({ id: 'Country' });
export type Country = z.infer<typeof countrySchema>;

/** A subdivision of ISO 3166-2; the id is its code (GB-ENG). */
export const stateSchema = z
  .object({
    id: z.string(),
    displayName: z.string(),
    countryId: z.number().int(),
    alpha2Code: z.string(),
  })
  .meta({ id: 'State' });
export type State = z.infer<typeof stateSchema>;

export const countryIdParam = z.object({ id: z.coerce.number().int().min(0).max(999) });
export const stateIdParam = z.object({ id: z.string().regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/) });
export const countriesSchema = z.object({ items: z.array(countrySchema) });
export const statesSchema = z.object({ items: z.array(stateSchema) });
