import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { CheckoutAdapter } from '../providers/checkout.js';
import type { FeatureFlagStore } from './feature-flags.js';
import type { Jobs } from './jobs.js';
import type { Mailer } from './mail.js';
import type { SecretBox } from './secrets.js';
import type { SessionStore } from './sessions.js';

/** What every area may use: the process's configuration, database and shared services. */
export interface AppContext {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  /** pg-boss, started on ready before any area's queues are registered. */
  jobs: Jobs;
  mailer: Mailer;
  /** Seals provider credentials and web hook secrets at rest. */
  secrets: SecretBox;
  flags: FeatureFlagStore;
  sessions: SessionStore;
  metrics: Registry;
  /** The payer page's checkout adapters (tests bring fakes). */
  checkouts?: CheckoutAdapter[];
}

/**
 * One area of the API (decision 167): its routes, queues and hooks as one Fastify plugin, and the
 * services it lends the areas made after it. app.ts only makes the areas and registers their plugins.
 */
export type Area<Lends extends object = object> = Lends & { plugin: FastifyPluginAsync };

/** An area made of its services and the plugin that registers its routes and hooks. */
export function area<Lends extends object>(lends: Lends, plugin: FastifyPluginAsync): Area<Lends> {
  return { ...lends, plugin };
}
