import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export const redacted = '[redacted]';

/**
 * Path segments that are secrets by themselves: whoever has the address can act
 * with it. The segment after the prefix is replaced.
 * - `/pay/{id}`, `/api/v0/pay/{id}/…`: a payment request's link is all a payer needs to pay it and
 *   to see the customer's invoices.
 * - `/idp-login/{uid}`, `/idp/auth/{uid}`, `/idp/interaction/{uid}`: a sign-in in progress.
 */
const secretSegments: RegExp[] = [
  /(\/pay\/)([^/?#\s]+)/g,
  /(\/idp-login\/)(?!assets\/|set-password(?:[/?#\s]|$))([^/?#\s]+)/g,
  /(\/idp\/(?:auth|interaction)\/)([^/?#\s]+)/g,
];

function redactPath(path: string): string {
  let result = path;
  for (const pattern of secretSegments) result = result.replace(pattern, `$1${redacted}`);
  return result;
}

/**
 * A request address fit for a log line: every query value is replaced (set-password tokens, OAuth
 * codes and states, filters with customers' names all travel there) and secret path segments too;
 * the names of query parameters stay, they help reading the line.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutHash = hash >= 0 ? url.slice(0, hash) : url;
  const question = withoutHash.indexOf('?');
  const path = redactPath(question >= 0 ? withoutHash.slice(0, question) : withoutHash);
  if (question < 0) return path;
  const query = withoutHash
    .slice(question + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      return `${name.slice(0, 64)}=${redacted}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Any address inside a free text (an error message, a stack): its query string goes. */
export function redactUrlsInText(text: string): string {
  return text
    .replace(
      /(\/[^\s?#"'<>]*)\?[^\s"'<>#]*/g,
      (_match, path: string) => `${redactUrl(path)}?${redacted}`,
    )
    .replace(/(\/[^\s?#"'<>]*)/g, (path: string) => redactPath(path));
}

type LoggedRequest = FastifyRequest | IncomingMessage;

function serializeRequest(request: LoggedRequest) {
  const fastify = 'raw' in request ? request : null;
  return {
    method: request.method,
    url: redactUrl(request.url ?? '/'),
    host: fastify ? fastify.host : request.headers?.host,
    remoteAddress: fastify ? fastify.ip : request.socket?.remoteAddress,
    remotePort: (fastify ? fastify.socket : request.socket)?.remotePort,
  };
}

function serializeError(error: Error) {
  const serialized = stdSerializers.err(error) as ReturnType<typeof stdSerializers.err> & {
    url?: unknown;
  };
  if (typeof serialized.message === 'string')
    serialized.message = redactUrlsInText(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = redactUrlsInText(serialized.stack);
  if (typeof serialized.url === 'string') serialized.url = redactUrl(serialized.url);
  return serialized;
}

/**
 * The process's pino logger (design §1 observability), used by the server and by the embedded
 * identity provider: request lines without query values or secret path segments, errors without
 * query strings, and no header, cookie or body ever logged.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: { req: serializeRequest, err: serializeError },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          'password',
          'accessToken',
          'token',
        ],
        censor: redacted,
      },
    },
    destination,
  );
}
