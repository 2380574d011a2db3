import { datasetIdHeader, type Problem } from '@ledgerline/contract';
import type { z } from 'zod';
import { fileNameOfContentDisposition } from './content-disposition';
import { recordFirstCall } from './first-calls';
import { isSessionActive } from './session';
import { getCompanyId } from './storage';

/** design §3: every call goes to the versioned API base. */
export const apiBase = '/api/v0';

/**
 * A failed call. `status` is null when no response arrived. Problem documents (RFC 9457) are kept
 * whole so that callers can read `detail`, `errorCode` and the per-field `errors`.
 */
export class ApiError extends Error {
  readonly status: number | null;
  readonly problem: Problem | null;

  constructor(status: number | null, problem: Problem | null, message?: string) {
    super(message ?? problem?.detail ?? problem?.title ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }

  get errorCode(): string | undefined {
    return this.problem?.errorCode;
  }

  /** Validation messages per field, as the server's 400 problem carries them. */
  get fieldErrors(): Record<string, string[]> {
    return this.problem?.errors ?? {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * spec 1 §7: three client kinds. `public` needs no session (sign-in, feature flags); `tenant`
 * needs a session; `company` needs a session and sends the stored company in Dataset-Id.
 */
export type ClientKind = 'public' | 'tenant' | 'company';

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T> {
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  signal?: AbortSignal;
  /**
   * Validates and types the JSON answer with a contract schema. The first screen's calls (the
   * sign-in landing and the dashboard) pass it in development and tests only, written inline as
   * `schema: import.meta.env.DEV ? someSchema : undefined`: the production build then drops the
   * schema and zod with it, which are not part of the first load (docs/decisions/085-first-load-under-170-kb.md "First load
   * under 170 KB"). Safe because our server writes every answer from the same contract schema
   * (apps/api/src/platform/serializer.ts); the check in the browser would only find a drift
   * between site and server, which the tests (where DEV is true) catch. The other screens always
   * pass it; answers of other servers (the identity provider) are always checked.
   */
  schema?: z.ZodType<T>;
  headers?: Record<string, string>;
  /**
   * How to read a successful body; `auto` reads JSON, text, or nothing for 204; `file` reads a
   * `DownloadedFile` (the blob and the name its Content-Disposition gives).
   */
  responseType?: 'auto' | 'blob' | 'file';
}

export interface ApiClient {
  get<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const xsrfCookieName = 'XSRF-TOKEN';
export const xsrfHeaderName = 'X-XSRF-TOKEN';

export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export function buildUrl(path: string, query?: RequestOptions<unknown>['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item !== undefined && item !== null && item !== '') params.append(key, String(item));
    }
  }
  const search = params.toString();
  return `${apiBase}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isOptional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);
const isFieldErrors = (value: unknown): value is Record<string, string[]> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((messages) => Array.isArray(messages) && messages.every(isString));

/**
 * An RFC 9457 problem document (the contract's `problemSchema`, checked by hand: an error answer
 * can come from a proxy as well as from our server, and zod is not part of the first load).
 */
export function asProblem(value: unknown): Problem | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { type, title, status, detail, instance, errorCode, errors } = value as Record<
    string,
    unknown
  >;
  if (!isString(type) || !isString(title) || !Number.isInteger(status)) return null;
  if (![detail, instance, errorCode].every((field) => isOptional(field, isString))) return null;
  if (!isOptional(errors, isFieldErrors)) return null;
  return {
    type,
    title,
    status: status as number,
    ...(detail !== undefined && { detail: detail as string }),
    ...(instance !== undefined && { instance: instance as string }),
    ...(errorCode !== undefined && { errorCode: errorCode as string }),
    ...(errors !== undefined && { errors: errors as Record<string, string[]> }),
  };
}

async function readProblem(response: Response): Promise<Problem | null> {
  try {
    return asProblem(await response.json());
  } catch {
    return null;
  }
}

/** A downloaded file: its bytes and the name the server gave it (null when it gave none). */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

async function readBody(
  response: Response,
  responseType: 'auto' | 'blob' | 'file',
): Promise<unknown> {
  if (responseType === 'blob') return response.blob();
  if (responseType === 'file') {
    const file: DownloadedFile = {
      blob: await response.blob(),
      fileName: fileNameOfContentDisposition(response.headers.get('content-disposition')),
    };
    return file;
  }
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const contentType = response.headers.get('content-type') ?? '';
  return contentType.includes('json') ? JSON.parse(text) : text;
}

/**
 * An answer boot.js asked for while this code was loading, by address (and
 * for a company's call, `${companyId} ${address}`); each is taken once. Only plain GETs (no
 * headers of the caller's own).
 */
export function takeEarlyAnswer(url: string): Promise<Response> | undefined {
  const early = (window as { __ledgerlineEarly?: Record<string, Promise<Response>> })
    .__ledgerlineEarly;
  const answer = early?.[url];
  if (answer) delete early[url];
  return answer;
}

export function createApiClient(kind: ClientKind): ApiClient {
  async function request<T>(
    method: string,
    path: string,
    body: unknown,
    options: RequestOptions<T> = {},
  ): Promise<T> {
    // spec 1 §7: an expired or missing session aborts the request (the caller then signs in).
    if (kind !== 'public' && !isSessionActive()) {
      throw new ApiError(401, null, 'The session has expired.');
    }

    const headers = new Headers({ Accept: 'application/json', ...options.headers });
    const companyId = kind === 'company' ? getCompanyId() : null;
    if (companyId !== null) headers.set(datasetIdHeader, String(companyId));
    if (unsafeMethods.has(method)) {
      const xsrf = readCookie(xsrfCookieName);
      if (xsrf) headers.set(xsrfHeaderName, xsrf);
    }

    let payload: BodyInit | undefined;
    if (body instanceof FormData || body instanceof URLSearchParams || body instanceof Blob) {
      payload = body;
    } else if (body !== undefined) {
      headers.set('Content-Type', 'application/json');
      payload = JSON.stringify(body);
    }

    const url = buildUrl(path, options.query);
    const ask = () =>
      fetch(url, {
        method,
        headers,
        body: payload,
        credentials: 'include',
        signal: options.signal,
      });
    const plainGet = method === 'GET' && !options.headers;
    if (plainGet) recordFirstCall(url, companyId);
    const early = plainGet
      ? takeEarlyAnswer(companyId === null ? url : `${companyId} ${url}`)
      : undefined;
    let response: Response;
    try {
      // An early call that failed is asked again.
      response = await (early ? early.catch(ask) : ask());
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(null, null, 'The server could not be reached.');
    }

    if (!response.ok) throw new ApiError(response.status, await readProblem(response));

    const data = await readBody(response, options.responseType ?? 'auto');
    return options.schema ? options.schema.parse(data) : (data as T);
  }

  return {
    get: (path, options) => request('GET', path, undefined, options),
    delete: (path, options) => request('DELETE', path, undefined, options),
    post: (path, body, options) => request('POST', path, body, options),
    put: (path, body, options) => request('PUT', path, body, options),
    patch: (path, body, options) => request('PATCH', path, body, options),
  };
}

export const publicClient = createApiClient('public');
export const tenantClient = createApiClient('tenant');
export const companyClient = createApiClient('company');
