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
  TRUST_PROXY: bool.default(false),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Ledgerline <no-reply@ledgerline.local>'),
  /** 32-byte key (base64) that encrypts provider credentials at rest. */
  SECRETS_KEY: z.string().optional(),
  RATE_LIMIT_LOGIN_PER_MINUTE: z.coerce.number().int().min(1).default(20),
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
  /** GoCardless OAuth partner app; sandbox unless GOCARDLESS_LIVE. */
  GOCARDLESS_CLIENT_ID: z.string().optional(),
  GOCARDLESS_CLIENT_SECRET: z.string().optional(),
  GOCARDLESS_LIVE: bool.default(false),
  GOCARDLESS_CONNECT_URL: z.url().optional(),
  GOCARDLESS_API_URL: z.url().optional(),
  GOCARDLESS_VERIFY_URL: z.url().optional(),
  OPAYO_TEST_URL: z.url().default('https://sandbox.opayo.eu.elavon.com'),
  OPAYO_LIVE_URL: z.url().default('https://live.opayo.eu.elavon.com'),
  /** The address Opayo sees this server's calls come from, registered by a Server-type save. */
  OPAYO_SERVER_IP: z.ipv4().optional(),
  TRANSAFE_TEST_URL: z.url().default('https://test.transafe.com'),
  TRANSAFE_LIVE_URL: z.url().default('https://post.live.transafe.com'),
  OPPWA_TEST_URL: z.url().default('https://eu-test.oppwa.com'),
  OPPWA_LIVE_URL: z.url().default('https://eu-prod.oppwa.com'),
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
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, '');
  const embeddedIdp = !raw.OIDC_ISSUER;
  const featureFlagDefaults: Record<string, boolean> = {};
  for (const item of raw.FEATURE_FLAGS.split(',')) {
    const [name, value] = item.split('=').map((s) => s.trim());
    if (name) featureFlagDefaults[name] = value === 'true';
  }
  return {
    ...raw,
    publicUrl,
    cookieSecure: raw.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    oidcIssuer: raw.OIDC_ISSUER ?? `${publicUrl}/idp`,
    oidcAudience: raw.OIDC_AUDIENCE ?? `${publicUrl}/api`,
    embeddedIdp,
    featureFlagDefaults,
  };
}
