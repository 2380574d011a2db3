import { vi } from 'vitest';

export interface StubbedCall {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

/** An answer; `headers` are added to (or replace) the Content-Type the stub picks. */
interface StubReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Reply = StubReply | ((call: StubbedCall) => StubReply);

/**
 * Replaces fetch with a table of `METHOD /path` → reply (the path without /api/v0 and query).
 * Unlisted calls answer 404 with a problem document. Answers the recorded calls.
 */
export function stubFetch(routes: Record<string, Reply>): StubbedCall[] {
  const calls: StubbedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      const call = {
        method,
        url: url.pathname + url.search,
        headers: new Headers(init.headers),
        body,
      };
      calls.push(call);
      const path = url.pathname.replace(/^\/api\/v0/, '');
      const route = routes[`${method} ${path}`];
      const reply: StubReply =
        typeof route === 'function'
          ? route(call)
          : (route ?? {
              status: 404,
              body: { type: 'about:blank', title: 'Not Found', status: 404 },
            });
      const status = reply.status ?? 200;
      if (status === 204 || reply.body === undefined) return new Response(null, { status, headers: reply.headers });
      const contentType = status >= 400 ? 'application/problem+json' : 'application/json';
      return new Response(JSON.stringify(reply.body), {
        status,
        headers: { 'Content-Type': contentType, ...reply.headers },
      });
    }),
  );
  return calls;
}
