import { isIP } from 'node:net';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalUrl = z.url().optional();

/**
 * Every environment variable Ledgerline reads, with its default. README.md documents each one;
 * keep the two in step.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** The address users reach the site at; the embedded issuer is `<PUBLIC_URL>/idp`. */
  PUBLIC_URL: z.url().optional(),
  /** Folder of the embedded database (`<DATA_DIR>/db`) and the embedded mail drop (`<DATA_DIR>/mail`). */
  DATA_DIR: z.string().default('./data'),
  /** PostgreSQL connection string; when unset the embedded PGlite database is used. */
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Connections that reads share, each carrying many reads at once (db/scoped-read.ts): about as
   * many as the database server has cores to give this process.
   */
  DATABASE_READ_CONNECTIONS: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Streaming standbys (comma list of connection strings): the reads of GET requests (lists,
   * counts, exports, reports, the dashboard) go to one that is up, within
   * DATABASE_REPLICA_MAX_LAG_MS and has replayed the caller's last write.
   */
  DATABASE_REPLICA_URL: z.string().optional(),
  /** A standby lagging more than this many milliseconds is skipped until it catches up. */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).default(5_000),
  /** How often each standby's replay position and lag are checked, in milliseconds. */
  DATABASE_REPLICA_CHECK_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  /**
   * The primary itself when DATABASE_URL is a pooler in transaction mode (pgbouncer): migrations
   * run here under their session lock, and nothing through the pooler names a statement.
   */
  DATABASE_DIRECT_URL: z.string().optional(),
  /**
   * statement_timeout and idle_in_transaction_session_timeout of every PostgreSQL connection, in
   * milliseconds (0: none). Migrations run without them.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  /** The payment export: seconds it may take, made and downloaded. */
  EXPORT_DEADLINE_SECONDS: z.coerce.number().int().min(1).default(1800),
  /** A download slower than this many bytes a second over a window is ended. */
  EXPORT_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(4096),
  EXPORT_THROUGHPUT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(30),
  /** Exports one tenant may run at once (per process); more answer 429. */
  EXPORTS_PER_TENANT: z.coerce.number().int().min(1).default(2),
  /** Folder of the exports' spool files; the system's temporary folder when unset. */
  EXPORT_SPOOL_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** External OpenID Connect provider; when unset the embedded provider at /idp is used. */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().default('ledgerline-web'),
  /** The `aud` the API requires in access tokens. Defaults to `<PUBLIC_URL>/api` for the embedded provider. */
  OIDC_AUDIENCE: z.string().optional(),
  OIDC_SCOPE: z.string().default('openid profile email'),
  /** Extra redirect origins the embedded provider accepts (comma list), e.g. the Vite dev server. */
  OIDC_EXTRA_ORIGINS: z.string().default(''),
  /** First-start administrator of the demo tenant. A password is generated and printed once when unset. */
  ADMIN_EMAIL: z.email().default('admin@ledgerline.local'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(60),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).default(12),
  /** Sets Secure cookies and the __Host- prefix; defaults to true when PUBLIC_URL is https. */
  COOKIE_SECURE: bool.optional(),
  /**
   * The proxies in front of the server whose X-Forwarded-* headers are believed: `false`, how many
   * there are (hops), or their addresses and networks (comma list). `true` means one hop.
   */
  TRUST_PROXY: z.string().default('false'),
  /**
   * /metrics: a bearer token a scraper must send; and/or its own listener. With
   * neither, /metrics answers the machine itself only (a loopback caller, nothing forwarded).
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Serves /metrics on this port only (not on PORT), on METRICS_HOST. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Addresses the user menu's terms of service and privacy policy open. */
  TERMS_OF_SERVICE_URL: z.url({ protocol: /^https?$/ }).optional(),
  PRIVACY_POLICY_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * spec 1 §8: the site reports its uncaught errors and Core Web Vitals to
   * POST /api/v0/client-reports, which logs them and counts them in /metrics. `false`: the site
   * sends nothing and the call is not served.
   */
  CLIENT_REPORTS: bool.default(true),
  /** Calls per minute per client address to the client-reports intake. */
  CLIENT_REPORTS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** An external collector each accepted report is forwarded to (POST, JSON). */
  CLIENT_REPORTS_FORWARD_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The collector's instrumentation key, sent as `Authorization: Bearer <key>`. */
  CLIENT_REPORTS_FORWARD_KEY: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Ledgerline <no-reply@ledgerline.local>'),
  /** 32-byte key (base64) that encrypts provider credentials at rest. */
  SECRETS_KEY: z.string().optional(),
  RATE_LIMIT_LOGIN_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Payer page: calls per minute per client address to the public pay calls. */
  RATE_LIMIT_PAY_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /**
   * Minutes a started, unfinished payer-page payment holds its request against another payer, for
   * a provider without a session length of its own (the Sandbox; features/pay/provider-windows.ts).
   */
  PAY_ATTEMPT_HOLD_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  /** Signs the Sandbox provider's notifications (one HMAC secret per configuration is derived from it). */
  SANDBOX_NOTIFICATION_KEY: z.string().min(16).optional(),
  /** Default of each feature flag until an operator sets it (comma list of name=true|false). */
  FEATURE_FLAGS: z.string().default('PermissionPolicy=true,NewAccessKeyPage=true'),
  ACCESS_KEY_MAXIMUM: z.coerce.number().int().min(1).max(1000).default(10),
  // Payment providers (reference/providers.md). Every base URL is configuration, so tests and
  // journeys point them at local fakes.
  /** Milliseconds a provider call may take before it is given up. */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Stripe Connect platform: its secret key (sk_test_… in test mode) and Connect client id (ca_…). */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_CONNECT_CLIENT_ID: z.string().optional(),
  STRIPE_CONNECT_URL: z.url().default('https://connect.stripe.com'),
  STRIPE_API_URL: z.url().default('https://api.stripe.com'),
  /** The platform's Connect webhook endpoint secret (whsec_…): verifies Stripe-Signature. */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** GoCardless OAuth partner app; sandbox unless GOCARDLESS_LIVE. */
  GOCARDLESS_CLIENT_ID: z.string().optional(),
  GOCARDLESS_CLIENT_SECRET: z.string().optional(),
  GOCARDLESS_LIVE: bool.default(false),
  GOCARDLESS_CONNECT_URL: z.url().optional(),
  GOCARDLESS_API_URL: z.url().optional(),
  GOCARDLESS_VERIFY_URL: z.url().optional(),
  /** The partner app's webhook endpoint secret: verifies Webhook-Signature. */
  GOCARDLESS_WEBHOOK_SECRET: z.string().optional(),
  /** TrueLayer hosts, by a configuration's sandbox switch (reference/providers.md). */
  TRUELAYER_AUTH_SANDBOX_URL: z.url().default('https://auth.truelayer-sandbox.com'),
  TRUELAYER_AUTH_LIVE_URL: z.url().default('https://auth.truelayer.com'),
  TRUELAYER_PAY_SANDBOX_URL: z.url().default('https://pay-api.truelayer-sandbox.com'),
  TRUELAYER_PAY_LIVE_URL: z.url().default('https://pay-api.truelayer.com'),
  /**
   * TrueLayer's v3 API hosts: payments into a merchant account (`/v3/payments`) and their refunds
   * (`/v3/payments/{id}/refunds`), by the sandbox switch.
   */
  TRUELAYER_API_SANDBOX_URL: z.url().default('https://api.truelayer-sandbox.com'),
  TRUELAYER_API_LIVE_URL: z.url().default('https://api.truelayer.com'),
  /** TrueLayer's hosted payment page, where the payer authorises a v3 payment (`/payments#…`). */
  TRUELAYER_HPP_SANDBOX_URL: z.url().default('https://payment.truelayer-sandbox.com'),
  TRUELAYER_HPP_LIVE_URL: z.url().default('https://payment.truelayer.com'),
  /**
   * The JWKS addresses a Tl-Signature's `jku` may name (comma list): TrueLayer's webhook keys,
   * live and sandbox. A signature naming any other address is refused.
   */
  TRUELAYER_JWKS_URL: z
    .string()
    .default(
      'https://webhooks.truelayer.com/.well-known/jwks,https://webhooks.truelayer-sandbox.com/.well-known/jwks',
    ),
  OPAYO_TEST_URL: z.url().default('https://sandbox.opayo.eu.elavon.com'),
  OPAYO_LIVE_URL: z.url().default('https://live.opayo.eu.elavon.com'),
  /** The address Opayo sees this server's calls come from, registered by a Server-type save. */
  OPAYO_SERVER_IP: z.ipv4().optional(),
  /**
   * Without OPAYO_SERVER_IP: a "what is my IP" service (plain text or JSON `{ ip }`, e.g.
   * https://api.ipify.org) asked for that address; unset: the machine's one public interface address.
   */
  OPAYO_IP_LOOKUP_URL: z.url().optional(),
  TRANSAFE_TEST_URL: z.url().default('https://test.transafe.com'),
  TRANSAFE_LIVE_URL: z.url().default('https://post.live.transafe.com'),
  OPPWA_TEST_URL: z.url().default('https://eu-test.oppwa.com'),
  OPPWA_LIVE_URL: z.url().default('https://eu-prod.oppwa.com'),
  // Outgoing web hooks: through Svix when SVIX_TOKEN is set, else delivered by Ledgerline.
  /** A Svix API token (cloud, or a self-hosted svix-server's JWT). */
  SVIX_TOKEN: z.string().optional(),
  /** A self-hosted Svix server; unset: Svix's cloud (the token's region). */
  SVIX_SERVER_URL: z.url().optional(),
  /** Lets embedded deliveries reach private, loopback and link-local addresses (tests, intranets). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /**
   * Ports embedded deliveries may be sent to (comma list, or `*` for any). Unset: 443 and 80, or
   * any when WEBHOOK_ALLOW_PRIVATE (an intranet's receivers listen where they like).
   */
  WEBHOOK_ALLOWED_PORTS: z
    .string()
    .regex(/^(\*|\d{1,5}(,\d{1,5})*)$/, 'a comma list of ports, or *')
    .optional(),
  /** Seconds between an embedded delivery's failed attempts (comma list; one retry per entry). */
  WEBHOOK_RETRY_SECONDS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'a comma list of whole seconds')
    .default('5,300,1800,7200,18000,36000,36000'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** An endpoint whose attempts have all failed for this long is disabled and the administrators told. */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().min(0).default(120),
  /**
   * Origins of parent sites allowed to frame Ledgerline (spec 3 §2 embedded view), comma
   * separated (`https://erp.example.com`). Empty: only Ledgerline's own pages may frame it.
   */
  FRAME_ANCESTORS: z.string().default(''),
  /** Capitalise's funding search (reference/providers.md): the partner's introducer key. */
  CAPITALISE_INTRODUCER_KEY: z.string().trim().min(1).max(200).optional(),
  /** Capitalise's host; `https://demo.capitalise.com` for the demo (which has its own key). */
  CAPITALISE_URL: z.url().default('https://capitalise.com'),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  publicUrl: string;
  cookieSecure: boolean;
  /** The issuer whose tokens the API accepts. */
  oidcIssuer: string;
  oidcAudience: string;
  embeddedIdp: boolean;
  featureFlagDefaults: Record<string, boolean>;
  /**
   * TRUST_PROXY as Fastify's `trustProxy` takes it: false, a hop count, or addresses/CIDRs. Never
   * plain `true`, which would believe a client-written X-Forwarded-For.
   */
  trustProxy: TrustProxy;
  /** FRAME_ANCESTORS as origins; when any is set, cookies are SameSite=None; Partitioned. */
  frameAncestors: string[];
  /** WEBHOOK_ALLOWED_PORTS as numbers; null: any port. */
  webhookAllowedPorts: number[] | null;
}

export type TrustProxy = false | number | string[];

const trustProxyMessage =
  'TRUST_PROXY: expected false, a number of proxies in front of the server, or their addresses and networks (comma list, e.g. 10.0.0.2,10.1.0.0/16)';

/** An address, a network in CIDR notation, or one of proxy-addr's names for reserved ranges. */
function isProxyAddress(value: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `true` is kept for old configurations and means one hop, the
 * load balancer in front; believing every hop would let any client choose its own address.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim().toLowerCase();
  if (['false', 'no', '0'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return 1;
  if (/^\d{1,3}$/.test(text)) return Number(text);
  const addresses = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (addresses.length === 0 || !addresses.every(isProxyAddress))
    throw new Error(`Invalid configuration:\n  ${trustProxyMessage}`);
  return addresses;
}

/**
 * What Fastify's `trustProxy` is given. Fastify 5 trusts nobody for a bare hop count (it cannot
 * tell the proxy from a client that reached the port directly), so a count is a function that
 * believes the nearest `hops` addresses: right only when the port is reachable through the proxies
 * alone (README); otherwise name their addresses.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** FRAME_ANCESTORS: each item must be an origin (scheme, host and port only). */
function parseFrameAncestors(value: string, cookieSecure: boolean): string[] {
  const origins = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    if (
      !parsed ||
      !/^https?:$/.test(parsed.protocol) ||
      parsed.origin !== origin.replace(/\/$/, '')
    )
      throw new Error(
        `Invalid configuration:\n  FRAME_ANCESTORS: '${origin}' is not an origin such as https://erp.example.com`,
      );
  }
  // A cross-site frame only keeps a SameSite=None cookie, and browsers accept those only when Secure.
  if (origins.length > 0 && !cookieSecure)
    throw new Error(
      'Invalid configuration:\n  FRAME_ANCESTORS needs Secure cookies: serve Ledgerline over https (PUBLIC_URL https://…) or set COOKIE_SECURE=true',
    );
  return origins.map((origin) => new URL(origin).origin);
}

/**
 * Flags of finished features: on at a new installation, whatever FEATURE_FLAGS lists, until
 * FEATURE_FLAGS (`name=false`) or an operator (`npm run admin`) turns one off. Without it a new
 * install offered settlement options on invoices and accounts while Settlements said "not enabled".
 */
export const finishedFeatureFlags: Readonly<Record<string, boolean>> = {
  settlementConfigurations: true,
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, '');
  const embeddedIdp = !raw.OIDC_ISSUER;
  const featureFlagDefaults: Record<string, boolean> = { ...finishedFeatureFlags };
  for (const item of raw.FEATURE_FLAGS.split(',')) {
    const [name, value] = item.split('=').map((s) => s.trim());
    if (name) featureFlagDefaults[name] = value === 'true';
  }
  const cookieSecure = raw.COOKIE_SECURE ?? publicUrl.startsWith('https://');
  return {
    ...raw,
    publicUrl,
    cookieSecure,
    frameAncestors: parseFrameAncestors(raw.FRAME_ANCESTORS, cookieSecure),
    webhookAllowedPorts:
      raw.WEBHOOK_ALLOWED_PORTS === '*' ||
      (raw.WEBHOOK_ALLOWED_PORTS === undefined && raw.WEBHOOK_ALLOW_PRIVATE)
        ? null
        : (raw.WEBHOOK_ALLOWED_PORTS ?? '443,80').split(',').map(Number),
    trustProxy: parseTrustProxy(raw.TRUST_PROXY),
    oidcIssuer: raw.OIDC_ISSUER ?? `${publicUrl}/idp`,
    oidcAudience: raw.OIDC_AUDIENCE ?? `${publicUrl}/api`,
    embeddedIdp,
    featureFlagDefaults,
  };
}
