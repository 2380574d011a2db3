import { isApiError } from '@/lib/http';
import { errorMessage, forbiddenMessage, isForbidden } from '@/lib/status-routing';

/** How a problem document's field messages are laid onto a form. */
export interface FieldErrorOptions {
  /**
   * The form's values (`form.getValues()`): a server path is matched against the form's own field
   * paths, so 'billingContact.address.city' lands on that nested field and not on a flat 'city'.
   */
  fields?: unknown;
  /** Turns a server code ('datasetHostIdExists') into the sentence to show. */
  translate?: (message: string) => string;
}

/**
 * The per-field messages of a problem document (a 400's or 409's `errors`) as form errors: the
 * first message of each field, keyed by the form path it belongs to (see `formPathOf`).
 */
export function problemFieldErrors(
  error: unknown,
  options: FieldErrorOptions = {},
): Record<string, string> {
  if (!isApiError(error)) return {};
  const translate = options.translate ?? ((message: string) => message);
  const result: Record<string, string> = {};
  for (const [path, fieldMessages] of Object.entries(error.fieldErrors)) {
    const first = fieldMessages[0];
    if (first) result[formPathOf(path, options.fields)] = translate(first);
  }
  return result;
}

/**
 * The form field a server path names. The server joins a field's path with dots
 * ('billingContact.address.city', '0.amount' for an array body). In order:
 * - the same path in the form's values;
 * - the one form path that ends with it (a form that holds an array body under a key:
 *   'allocations.0.amount');
 * - the path less its leading parts, longest first, when the form holds that ('body.email' → 'email');
 * - otherwise its last part, for forms whose values are not given.
 */
export function formPathOf(serverPath: string, fields?: unknown): string {
  const parts = serverPath.split(/[./]/).filter((part) => part !== '');
  if (parts.length === 0) return serverPath;
  const last = parts[parts.length - 1]!;
  if (fields === undefined || fields === null || typeof fields !== 'object') return last;
  if (holdsPath(fields, parts)) return parts.join('.');
  const joined = parts.join('.');
  const ending = formPaths(fields).filter((path) => path.endsWith(`.${joined}`));
  if (ending.length === 1) return ending[0]!;
  for (let start = 1; start < parts.length; start += 1) {
    if (holdsPath(fields, parts.slice(start))) return parts.slice(start).join('.');
  }
  return last;
}

function holdsPath(values: unknown, parts: readonly string[]): boolean {
  let node = values;
  for (const part of parts) {
    if (node === null || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

/** Every path of the form's values, nested objects and arrays included ('items.0.amount'). */
function formPaths(values: unknown, prefix = ''): string[] {
  if (
    values === null ||
    typeof values !== 'object' ||
    values instanceof Date ||
    values instanceof File
  )
    return [];
  return Object.entries(values).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...formPaths(value, path)];
  });
}

/**
 * A failed form submit shows its field messages beside the fields, or a toast when it has none —
 * never both (the Users dialog said the same thing twice).
 */
export function showSubmitFailure(
  error: unknown,
  form: { getValues: () => unknown; setErrors: (errors: Record<string, string>) => void },
  toast: () => void,
): void {
  const fieldErrors = problemFieldErrors(error, { fields: form.getValues() });
  if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
  else toast();
}

/**
 * A failed action's toast: the fixed beginning ('An error occurred while creating the user: ') and
 * the detail; a 403 shows the forbidden toast instead (spec 1 §8, spec 2 §8).
 */
export function failureMessage(prefix: string, error: unknown): string {
  if (isForbidden(error)) return forbiddenMessage;
  return `${prefix}${errorMessage(error)}`;
}
