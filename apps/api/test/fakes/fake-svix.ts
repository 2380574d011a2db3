import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startFakeServer, type FakeServer } from './fake-server.js';

/**
 * A local Svix server (reference/providers.md, Svix): the application, message and app-portal
 * calls Ledgerline makes, with Svix's Bearer auth, `get_if_exists`, and its refusal of a message
 * whose eventId it already has (409).
 */
export interface FakeSvix extends FakeServer {
  token: string;
  applications: Map<string, { id: string; uid: string; name: string }>;
  /** Messages by application uid, as stored. */
  messages: Map<
    string,
    { id: string; eventType: string; eventId: string | null; payload: unknown }[]
  >;
  /** Answers the next n message calls with this status (an outage). */
  failNext(n: number, status: number): void;
}

export async function startFakeSvix(): Promise<FakeSvix> {
  const token = `testsk_${randomBytes(12).toString('hex')}`;
  const applications = new Map<string, { id: string; uid: string; name: string }>();
  const messages = new Map<
    string,
    { id: string; eventType: string; eventId: string | null; payload: unknown }[]
  >();
  let failing = { n: 0, status: 500 };
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const findApp = (idOrUid: string) =>
    applications.get(idOrUid) ?? [...applications.values()].find((app) => app.id === idOrUid);

  const server = await startFakeServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${token}`) {
      return json(response, 401, { code: 'authentication_failed', detail: 'Invalid token' });
    }
    const body = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
    if (request.method === 'POST' && request.path === '/api/v1/app/') {
      const uid = String(body.uid ?? '');
      if (!body.name)
        return json(response, 422, { detail: [{ loc: ['body', 'name'], msg: 'field required' }] });
      const existing = applications.get(uid);
      if (existing) {
        return request.query.get('get_if_exists') === 'true'
          ? json(response, 200, { ...existing, createdAt: new Date().toISOString() })
          : json(response, 409, {
              code: 'conflict',
              detail: 'An application with this uid already exists',
            });
      }
      const app = { id: `app_${randomBytes(8).toString('hex')}`, uid, name: String(body.name) };
      applications.set(uid, app);
      return json(response, 201, { ...app, createdAt: new Date().toISOString() });
    }
    const msg = /^\/api\/v1\/app\/([^/]+)\/msg\/$/.exec(request.path);
    if (request.method === 'POST' && msg) {
      const app = findApp(decodeURIComponent(msg[1]!));
      if (!app) return json(response, 404, { code: 'not_found', detail: 'Entity not found' });
      if (failing.n > 0) {
        failing.n--;
        return json(response, failing.status, { code: 'server_error', detail: 'Internal error' });
      }
      const list = messages.get(app.uid) ?? [];
      const eventId = typeof body.eventId === 'string' ? body.eventId : null;
      if (eventId && list.some((m) => m.eventId === eventId)) {
        return json(response, 409, {
          code: 'conflict',
          detail: 'A message with this eventId already exists',
        });
      }
      const message = {
        id: `msg_${randomBytes(8).toString('hex')}`,
        eventType: String(body.eventType),
        eventId,
        payload: body.payload,
      };
      list.push(message);
      messages.set(app.uid, list);
      return json(response, 202, { ...message, timestamp: new Date().toISOString() });
    }
    const portal = /^\/api\/v1\/auth\/app-portal-access\/([^/]+)\/$/.exec(request.path);
    if (request.method === 'POST' && portal) {
      const app = findApp(decodeURIComponent(portal[1]!));
      if (!app) return json(response, 404, { code: 'not_found', detail: 'Entity not found' });
      const appToken = `appsk_${randomBytes(8).toString('hex')}`;
      return json(response, 200, {
        url: `${server.url}/app-portal/login#key=${appToken}`,
        token: appToken,
      });
    }
    return json(response, 404, {
      code: 'not_found',
      detail: `No route ${request.method} ${request.path}`,
    });
  });
  return Object.assign(server, {
    token,
    applications,
    messages,
    failNext(n: number, status: number) {
      failing = { n, status };
    },
  });
}
