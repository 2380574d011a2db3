import { z } from 'zod';

/** Every e-mail field is an e-mail address, checked the same on both sides. */
export const emailAddressMessage =
  'Email address must be a valid email address, e.g. jo@example.com.';

/**
 * An optional e-mail address: trimmed, at most `max` characters, empty or absent becomes null,
 * anything else must be an e-mail address.
 */
export const optionalEmailAddress = (max: number, tooLong: string) =>
  z
    .string({ message: emailAddressMessage })
    .trim()
    .max(max, tooLong)
    .pipe(z.union([z.literal(''), z.email({ message: emailAddressMessage })]))
    .nullish()
    .transform((value) => (value ? value : null));
