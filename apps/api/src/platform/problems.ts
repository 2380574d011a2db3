import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { QueryError } from '@ledgerline/contract';
import { isDatabaseUnavailable, retryAfterSeconds } from '../db/unavailable.js';
import { AppError } from './errors.js';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errorCode?: string;
  errors?: Record<string, string[]>;
}

export function problem(
  status: number,
  detail?: string,
  extra: Pick<ProblemBody, 'errorCode' | 'errors'> = {},
): ProblemBody {
  return {
    type: 'about:blank',
    title: titles[status] ?? (status >= 500 ? 'Internal Server Error' : 'Error'),
    status,
    ...(detail === undefined ? {} : { detail }),
    ...extra,
  };
}

export function sendProblem(reply: FastifyReply, body: ProblemBody): FastifyReply {
  return reply.status(body.status).type('application/problem+json').send(body);
}

/** Field path of a zod issue, as the site's forms name their fields. */
function fieldName(path: readonly PropertyKey[], context: string): string {
  const parts = path.map(String).filter((p) => p.length > 0);
  return parts.length > 0 ? parts.join('.') : context;
}

function toProblem(error: FastifyError | Error, request: FastifyRequest): ProblemBody {
  if (error instanceof AppError) {
    return problem(error.status, error.detail, error.extra);
  }
  if (error instanceof QueryError) {
    return problem(400, error.message, { errors: { [error.parameter]: [error.message] } });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: Record<string, string[]> = {};
    for (const issue of error.validation) {
      const context = (error as FastifyError).validationContext;
      const name = fieldName(issue.instancePath.split('/'), context ?? 'body');
      (errors[name] ??= []).push(issue.message ?? 'Invalid value.');
    }
    return problem(400, 'One or more fields are invalid.', { errors });
  }
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, body too large, unsupported media type, 429...).
    return problem(status, error.message);
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'the database is not reachable');
    return databaseUnavailable();
  }
  request.log.error({ err: error }, 'unhandled error');
  return problem(500, 'An unexpected error occurred. It has been logged.');
}

/**
 * The answer to a call that met a database restart, a killed backend or a dropped connection:
 * nothing of it was committed unless it said so, and it may be sent again (docs/decisions/030-the-database-going-away.md
 * "The database going away").
 */
export function databaseUnavailable(): ProblemBody {
  return problem(503, databaseUnavailableMessage);
}

export const databaseUnavailableMessage =
  'The database is not reachable at the moment. Please try again shortly.';

/** Sends a problem; a 503 carries Retry-After. */
export function sendProblemWithRetry(reply: FastifyReply, body: ProblemBody): FastifyReply {
  if (body.status === 503) reply.header('retry-after', String(retryAfterSeconds));
  return sendProblem(reply, body);
}

/** One handler for every failure (style.md §5); 5xx answers never carry internal messages. */
export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = toProblem(error, request);
    body.instance = request.url.split('?')[0];
    if (body.status === 429 && (error as FastifyError).statusCode === 429) {
      body.detail = 'Too many requests. Please wait a moment and try again.';
    }
    return sendProblemWithRetry(reply, body);
  });
}
