/**
 * Whether a failure means the database cannot be reached right now — a restart, a terminated
 * backend, a dropped or refused connection — rather than anything about the call itself. Such a
 * call is answered 503 with Retry-After (platform/problems.ts): the caller may try again, and the
 * connection that failed is already gone from its pool (db/client.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (unavailableCodes.has(code) || code.startsWith('08')))
      return true;
    if (typeof message === 'string' && unavailableMessages.some((m) => message.startsWith(m)))
      return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

const unavailableCodes = new Set([
  // PostgreSQL: admin_shutdown (a restart, pg_terminate_backend), crash_shutdown,
  // cannot_connect_now (starting up or shutting down). Class 08 is connection exceptions.
  '57P01',
  '57P02',
  '57P03',
  // The socket: refused, reset, timed out or unreachable.
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

// node-postgres and its pool say these without a code.
const unavailableMessages = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Query read timeout',
];

/** Seconds a caller is asked to wait before it tries again (Retry-After). */
export const retryAfterSeconds = 5;
