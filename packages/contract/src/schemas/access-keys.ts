import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { limits, messages } from '../limits.js';

/** spec 1 §3 Access key (and subscription key: the same shape here, see docs/decisions/058-dashboard-to-do-list.md). */
export const accessKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    validUntil: z.iso.datetime().nullable(),
    prefix: z.string(),
    createdOn: z.iso.datetime(),
    datasetId: z.number().int().nullable(),
  })
  .meta({ id: 'AccessKey' });
export type AccessKey = z.infer<typeof accessKeySchema>;

/** GET access-keys?search=: the keys grid's search box reads names and prefixes. */
export const accessKeyQuery = defineQueryFields(
  {
    name: { type: 'string', sortable: true, filterable: true },
    prefix: { type: 'string', filterable: true },
  },
  { defaultSort: 'name', search: { text: ['name', 'prefix'] } },
);

/** The create answer: the only time the full key exists (spec 1 §2.8). */
export const createdAccessKeySchema = accessKeySchema
  .extend({ accessKey: z.string() })
  .meta({ id: 'CreatedAccessKey' });
export type CreatedAccessKey = z.infer<typeof createdAccessKeySchema>;

/**
 * spec 1 §5: name required, at most 255, trimmed; validUntil optional and later than now.
 * `now` is injectable so the site and the server check against their own clocks.
 */
export function accessKeyBodySchema(now: () => Date = () => new Date()) {
  return z.object({
    name: z
      .string({ message: 'Name is required.' })
      .trim()
      .min(1, 'Name is required.')
      .max(
        limits.accessKeyName.max,
        `Name must be at most ${limits.accessKeyName.max} characters.`,
      ),
    validUntil: z
      .union([z.iso.datetime({ offset: true }), z.null()])
      .optional()
      .transform((v) => v ?? null)
      .refine(
        (v) => v === null || new Date(v).getTime() > now().getTime(),
        messages.accessKeyExpired,
      ),
  });
}
export const accessKeyBody = accessKeyBodySchema().meta({ id: 'AccessKeyBody' });
export type AccessKeyBody = z.input<typeof accessKeyBody>;

export const accessKeyMaximumResponse = z.object({ maximumKeyCount: z.number().int() });
export const accessKeyCountResponse = z.object({ count: z.number().int() });
export const subscriptionKeyCreateQuery = z.object({
  noDataset: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
