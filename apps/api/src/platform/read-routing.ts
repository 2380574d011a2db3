import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/client.js';
import { formatLsn, parseLsn, runWithReadRoute, type ReadRoute } from '../db/replicas.js';

/**
 * Which requests' reads may go to a standby (docs/decisions/157-reads-on-standbys.md "Reads on standbys"),
 * and read-your-writes across requests and API processes.
 *
 * Every request runs in a ReadRoute (db/replicas.ts). Its reads may use a standby once the caller
 * is known (after authentication, so a session or key just made is always found) and only when
 * the method is GET or HEAD; anything that writes (POST, PUT, PATCH, DELETE) reads on the
 * primary throughout, and so does a GET once it has written. A write's commit LSN is remembered
 * for its caller in this process and sent back in a cookie, which the browser returns to whichever
 * process answers next; the caller's reads then use only a standby that has replayed it.
 */

export const lsnCookieName = 'ledgerline_lsn';
/** How long a caller's last write is remembered: far past any lag a standby may have and be used. */
const rememberMs = 10 * 60_000;
const rememberedCallers = 100_000;

declare module 'fastify' {
  interface FastifyRequest {
    readRoute: ReadRoute | null;
  }
}

function callerOf(request: FastifyRequest): string | null {
  const principal = request.principal;
  if (!principal) return null;
  if (principal.accessKeyId) return `key:${principal.accessKeyId}`;
  if (principal.userId) return `user:${principal.userId}`;
  return null;
}

export function registerReadRouting(
  app: FastifyInstance,
  database: Database,
  options: { cookieSecure: boolean; registry: Registry },
): void {
  const status = database.replicas;
  if (!status || status().length === 0) return;
  registerReplicaMetrics(options.registry, status);

  const lastWrites = new Map<string, { lsn: bigint; at: number }>();
  const remember = (caller: string, lsn: bigint) => {
    const known = lastWrites.get(caller);
    if (known && known.lsn >= lsn) return;
    lastWrites.delete(caller);
    if (lastWrites.size >= rememberedCallers) lastWrites.delete(lastWrites.keys().next().value!);
    lastWrites.set(caller, { lsn, at: Date.now() });
  };

  app.decorateRequest('readRoute', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const route: ReadRoute = { replica: false, minLsn: 0n, wrote: false };
    request.readRoute = route;
    runWithReadRoute(route, done);
  });
  // A body is parsed in its stream's callbacks, outside the route: it is entered again after.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.readRoute) runWithReadRoute(request.readRoute, done);
    else done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const route = request.readRoute;
    const caller = callerOf(request);
    if (!route) {
      done();
      return;
    }
    if (!caller || (request.method !== 'GET' && request.method !== 'HEAD')) {
      runWithReadRoute(route, done);
      return;
    }
    let minLsn = parseLsn(request.cookies[lsnCookieName]);
    const known = lastWrites.get(caller);
    if (known) {
      if (Date.now() - known.at > rememberMs) lastWrites.delete(caller);
      else if (known.lsn > minLsn) minLsn = known.lsn;
    }
    route.minLsn = minLsn;
    route.replica = true;
    runWithReadRoute(route, done);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const route = request.readRoute;
    if (route) {
      if (route.replicaReads) reply.header('x-ledgerline-read', 'replica');
      if (route.lastLsn) {
        const caller = callerOf(request);
        if (caller) remember(caller, route.lastLsn);
        reply.setCookie(lsnCookieName, formatLsn(route.lastLsn), {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: options.cookieSecure,
          maxAge: rememberMs / 1000,
        });
      }
    }
    done(null, payload);
  });
}

function registerReplicaMetrics(
  registry: Registry,
  status: NonNullable<Database['replicas']>,
): void {
  const states = ['starting', 'up', 'lagging', 'down'] as const;
  new Gauge({
    name: 'ledgerline_database_replica_lag_seconds',
    help: 'Replay lag of each standby at its last check (absent while it is down).',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const replica of status())
        if (replica.lagMs !== null) this.set({ replica: replica.name }, replica.lagMs / 1000);
    },
  });
  new Gauge({
    name: 'ledgerline_database_replica_state',
    help: 'Each standby state: 1 for the state it is in (up: reads may use it).',
    labelNames: ['replica', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const replica of status())
        for (const state of states)
          this.set({ replica: replica.name, state }, replica.state === state ? 1 : 0);
    },
  });
  new Gauge({
    name: 'ledgerline_database_replica_reads_total',
    help: 'Reads each standby served.',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      for (const replica of status()) this.set({ replica: replica.name }, replica.reads);
    },
  });
  new Gauge({
    name: 'ledgerline_database_replica_failures_total',
    help: 'Reads that failed on each standby and were run again on the primary.',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      for (const replica of status()) this.set({ replica: replica.name }, replica.failures);
    },
  });
}
