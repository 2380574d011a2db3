import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { permissions, roles } from '../permissions.js';
import { longDateFormats, shortDateFormats } from '../reference/date-formats.js';
import { timeZones } from '../reference/time-zones.js';

const timeZoneIds = new Set(timeZones.map((t) => t.id));

/** spec 1 §3 UserSetting; PUT users/me/settings validates against the known lists. */
export const userSettingSchema = z
  .object({
    timeZoneId: z.string().refine((v) => timeZoneIds.has(v), { message: 'Unknown time zone.' }),
    use24Hour: z.boolean(),
    shortDateFormat: z.enum(shortDateFormats, { message: 'Unknown short date format.' }),
    longDateFormat: z.enum(longDateFormats, { message: 'Unknown long date format.' }),
    showAdvancedInfo: z.boolean(),
  })
  .meta({ id: 'UserSetting' });
export type UserSetting = z.infer<typeof userSettingSchema>;

export const roleSchema = z.enum(roles);

/** spec 1 §3 User (me). */
export const userMeSchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    tenantName: z.string(),
    userName: z.string(),
    displayName: z.string(),
    forename: z.string().nullable(),
    surname: z.string().nullable(),
    emailAddress: z.string(),
    role: roleSchema,
    permissions: z.array(z.enum(permissions)),
    userSetting: userSettingSchema,
  })
  .meta({ id: 'UserMe' });
export type UserMe = z.infer<typeof userMeSchema>;

/** A user as the users page lists them (spec 1 §2.6). */
export const userSchema = z
  .object({
    id: z.uuid(),
    displayName: z.string(),
    emailAddress: z.string(),
    role: roleSchema,
    lastSignInAt: z.iso.datetime().nullable(),
    invitationPending: z.boolean(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

/** GET users/all?search=: the users grid's search box reads names and e-mails. */
export const userQuery = defineQueryFields(
  {
    displayName: { type: 'string', sortable: true, filterable: true },
    emailAddress: { type: 'string', sortable: true, filterable: true },
  },
  { defaultSort: 'displayName', search: { text: ['displayName', 'emailAddress'] } },
);

const userName = z
  .string({ message: 'Name is required.' })
  .trim()
  .min(1, 'Name is required.')
  .max(100, 'Name must be at most 100 characters.');

/** spec 1 §5 user form: name 1–100 trimmed; e-mail required, valid, at most 500. */
export const createUserBody = z
  .object({
    name: userName,
    email: z
      .string({ message: 'Email is required.' })
      .trim()
      .min(1, 'Email is required.')
      .max(500, 'Email must be at most 500 characters.')
      .pipe(z.email({ pattern: z.regexes.unicodeEmail, message: 'Enter a valid email address.' })),
    role: z.enum(roles, { message: 'Choose a role.' }),
    /** Where the invitation's set-password page sends the user afterwards (this site). */
    redirectUri: z.url().max(2000).optional(),
  })
  .meta({ id: 'CreateUser' });
export type CreateUserBody = z.input<typeof createUserBody>;

/**
 * PUT users/{id} (spec 1 §3, §7): `{ id, displayName }`. The spec's users page names the field
 * `name`; a body with `name` and no `displayName` is read as that displayName (docs/decisions/124-spec-1-row-by-row-logo-rules-user-update-body-to.md).
 * The e-mail cannot change; the role has its own call.
 */
export const updateUserBody = z
  .preprocess(
    (body) => {
      if (typeof body !== 'object' || body === null || !('name' in body)) return body;
      const { name, ...rest } = body as Record<string, unknown>;
      return rest.displayName === undefined ? { ...rest, displayName: name } : rest;
    },
    z.object({ id: z.uuid(), displayName: userName }),
  )
  .meta({
    id: 'UpdateUser',
    description: 'The users page may send `name` instead of `displayName` (spec 1 §3).',
  });
export type UpdateUserBody = z.output<typeof updateUserBody>;

export const userRoleQuery = z.object({ role: z.enum(roles, { message: 'Choose a role.' }) });
