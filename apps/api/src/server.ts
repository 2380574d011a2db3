import { randomBytes } from 'node:crypto';
import type { pino } from 'pino';
import { buildApp, type MountableIdentityProvider } from './app.js';
import { loadConfig, type Config } from './config.js';
import type { Database } from './db/client.js';
import { makeDatabaseIfAsked } from './db/make-database.js';
import { openDatabase } from './db/open.js';
import { DataFolderInUseError } from './db/lock.js';
import { createTenant, tenantCount } from './features/tenants/tenants.service.js';
import { createIdentityProvider, registerIdentityProvider } from './idp/index.js';
import { createLogger } from './platform/logger.js';

const demoTenantName = 'Demo Ltd';
const invitationHours = 72;

/** An embedded account without a password yet, and a one-time link to set it. */
async function invitationLink(
  idp: Awaited<ReturnType<typeof createIdentityProvider>>,
  config: Config,
  input: { email: string; name: string; redirectUri: string },
): Promise<string> {
  const account =
    (await idp.accounts.findByEmail(input.email)) ??
    (await idp.accounts.createAccount({ email: input.email, name: input.name }));
  const token = await idp.accounts.createSetPasswordToken(account.id, invitationHours);
  const url = new URL(`${config.publicUrl}/idp-login/set-password`);
  url.searchParams.set('token', token);
  url.searchParams.set('redirect', input.redirectUri);
  return url.toString();
}

/** First start: the demo tenant with dataset 1 and an administrator who can sign in. */
async function seedFirstStart(
  config: Config,
  database: Database,
  idp: Awaited<ReturnType<typeof createIdentityProvider>> | null,
  log: pino.Logger,
): Promise<string[]> {
  if ((await tenantCount(database)) > 0) return [];
  await createTenant(database, {
    name: demoTenantName,
    adminEmail: config.ADMIN_EMAIL,
    adminName: 'Administrator',
  });
  if (!idp) {
    return [
      `Sign in through ${config.oidcIssuer} with the account whose e-mail is ${config.ADMIN_EMAIL}.`,
    ];
  }
  const password = config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
  const existing = await idp.accounts.findByEmail(config.ADMIN_EMAIL);
  if (existing) await idp.accounts.setPassword(existing.id, password);
  else
    await idp.accounts.createAccount({
      email: config.ADMIN_EMAIL,
      name: 'Administrator',
      password,
    });
  log.info(
    { tenant: demoTenantName, email: config.ADMIN_EMAIL },
    'created the demo tenant and its administrator',
  );
  return [
    `Sign in as ${config.ADMIN_EMAIL}`,
    config.ADMIN_PASSWORD
      ? 'with the password from ADMIN_PASSWORD.'
      : `with the password ${password}  (shown once: write it down)`,
  ];
}

async function main(): Promise<void> {
  if (await makeDatabaseIfAsked()) return;
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  let opened;
  try {
    opened = await openDatabase(config, { makeApart: true });
  } catch (error) {
    if (error instanceof DataFolderInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { database, release } = opened;

  const idp = config.embeddedIdp
    ? await createIdentityProvider({ config, database, logger: log })
    : null;
  const identityProvider: MountableIdentityProvider | undefined = idp
    ? {
        publicJwks: () => idp.publicJwks(),
        register: (app) => registerIdentityProvider(app, idp, config),
        invitationLink: (input) => invitationLink(idp, config, input),
      }
    : undefined;
  const app = await buildApp({ config, database, identityProvider, loggerInstance: log });
  const signIn = await seedFirstStart(config, database, idp, log);

  let closing = false;
  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      await idp?.close();
      await database.close();
    } finally {
      release();
      process.exit(0);
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const lines = [
    '',
    `Ledgerline is running at ${config.publicUrl}`,
    `Database: ${database.kind === 'pglite' ? `embedded, in ${config.DATA_DIR}/db` : 'PostgreSQL'}`,
    ...signIn,
    '',
  ];
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
