import { isApiError } from '@/lib/http';
import { errorMessage } from '@/lib/status-routing';

/**
 * The per-field messages of a problem document (a 400's or 409's `errors`) as form errors: the
 * first message of each field, keyed by the last part of its path ('body.email' → 'email').
 * `translate` turns a server code ('datasetHostIdExists') into the sentence to show.
 */
export function problemFieldErrors(
  error: unknown,
  translate: (message: string) => string = (message) => message,
): Record<string, string> {
  if (!isApiError(error)) return {};
  const result: Record<string, string> = {};
  for (const [path, fieldMessages] of Object.entries(error.fieldErrors)) {
    const field = path.split(/[./]/).pop() ?? path;
    const first = fieldMessages[0];
    if (first) result[field] = translate(first);
  }
  return result;
}

/**
 * A failed form submit shows its field messages beside the fields, or a toast when it has none —
 * never both (issue 10 item 13: the Users dialog said the same thing twice).
 */
export function showSubmitFailure(
  error: unknown,
  setErrors: (errors: Record<string, string>) => void,
  toast: () => void,
): void {
  const fieldErrors = problemFieldErrors(error);
  if (Object.keys(fieldErrors).length > 0) setErrors(fieldErrors);
  else toast();
}

/** A failure toast: the fixed beginning ('An error occurred while creating the user: ') and the detail. */
export function failureMessage(prefix: string, error: unknown): string {
  return `${prefix}${errorMessage(error)}`;
}
