import { messages } from '@ledgerline/contract';
import { isApiError } from './http';

/**
 * spec 1 §8: a 403 problem goes to /error/{errorCode} when its code is listed here. The spec's
 * list is empty; codes are added here when the server starts sending them.
 */
export const errorPageCodes: readonly string[] = [];

/**
 * spec 1 §8 / spec 2 §8: a 403 shows a forbidden toast. The spec gives no other wording for it than
 * its forbidden text, 'Forbidden request' (spec 1 §2.5, spec 3 §8), so the toast says that
 * (docs/decisions/126-the-forbidden-toast.md "The forbidden toast").
 */
export const forbiddenMessage = 'Forbidden request';

/** A call the server refused for want of a permission (403). */
export function isForbidden(error: unknown): boolean {
  return isApiError(error) && error.status === 403;
}

export type ErrorRoute =
  { kind: 'sign-in' } | { kind: 'error-page'; path: string; detail?: string; forbidden: boolean };

/** spec 1 §8: where a failed page load sends the user. */
export function routeForError(error: unknown): ErrorRoute {
  if (!isApiError(error)) {
    return {
      kind: 'error-page',
      path: '/error/unknown',
      detail: errorDetail(error),
      forbidden: false,
    };
  }
  const detail = error.problem?.detail ?? error.message;
  switch (error.status) {
    case 401:
      return { kind: 'sign-in' };
    case 404:
    case 502:
    case 503:
      return { kind: 'error-page', path: `/error/${error.status}`, detail, forbidden: false };
    case 403: {
      const code = error.errorCode;
      const path = code && errorPageCodes.includes(code) ? `/error/${code}` : '/error/403';
      return { kind: 'error-page', path, detail, forbidden: true };
    }
    default:
      return { kind: 'error-page', path: '/error/unknown', detail, forbidden: false };
  }
}

function errorDetail(error: unknown): string | undefined {
  return error instanceof Error ? error.message : undefined;
}

/**
 * spec 1 §8: the toast text of a failed call. Problems show their detail, a 404 shows 'Item could
 * not be found', other problems 'An unknown error occurred'; plain errors show their message.
 */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === null) return error.message;
    if (error.problem?.detail) return error.problem.detail;
    if (error.status === 404) return messages.itemNotFound;
    return messages.unknownError;
  }
  if (error instanceof Error && error.message) return error.message;
  return messages.unknownError;
}
