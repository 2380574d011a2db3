import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { tenantSettingNames } from '@ledgerline/contract';
import { loadConfig } from './config.js';
import { openDatabase } from './db/open.js';
import { tenantSettings, tenants } from './db/schema.js';
import { createTenant } from './features/tenants/tenants.service.js';
import { setBankRate } from './features/money-rules/set-bank-rate.js';
import { createFeatureFlags } from './platform/feature-flags.js';
import { createIdentityProvider } from './idp/index.js';
import { renameSync, writeFileSync } from 'node:fs';
import { rotateProviderSecrets } from './features/payment-providers/payment-providers.key-rotation.js';
import {
  createSecretBox,
  generateSecretsKey,
  keyIdOf,
  loadSecretsKey,
  parseSecretsKey,
} from './platform/secrets.js';

const usage = `Ledgerline operator commands: npm run admin -- <command> [options]

  list-tenants
  create-tenant --name <name> --admin-email <email> [--admin-name <name>] [--admin-password <pw>]
  set-flag --name <flag> --value true|false
  set-tenant-setting --tenant <tenant id> --name <setting> --value true|false
  set-bank-rate --from <YYYY-MM-DD> --rate <percent>   a Bank of England Bank Rate change
  rotate-secrets-key [--new-key <base64 32 bytes>] [--old-key <base64 32 bytes>]
      re-encrypts every provider's credentials with a new key (generated when not given); the old
      key is SECRETS_KEY or the data folder's key file unless --old-key names it

With the embedded database, stop the server first (the data folder is locked while it runs).`;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      value: { type: 'string' },
      tenant: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
      'admin-password': { type: 'string' },
      from: { type: 'string' },
      rate: { type: 'string' },
      'new-key': { type: 'string' },
      'old-key': { type: 'string' },
    },
  });
  if (!command || command === 'help' || command === '--help') {
    console.log(usage);
    return;
  }
  const config = loadConfig();
  const { database, release } = await openDatabase(config);
  try {
    switch (command) {
      case 'list-tenants': {
        const rows = await database.db.select().from(tenants).orderBy(tenants.createdAt);
        for (const t of rows)
          console.log(`${t.id}  ${t.name}  (created ${t.createdAt.toISOString()})`);
        if (rows.length === 0) console.log('No tenants yet.');
        break;
      }
      case 'create-tenant': {
        const name = required(values.name, '--name');
        const email = required(values['admin-email'], '--admin-email');
        const adminName = values['admin-name'] ?? 'Administrator';
        const { tenantId } = await createTenant(database, { name, adminEmail: email, adminName });
        console.log(`Created tenant ${name} (${tenantId}) with administrator ${email}.`);
        if (config.embeddedIdp) {
          const idp = await createIdentityProvider({
            config,
            database,
            logger: pino({ level: 'warn' }),
          });
          const password = values['admin-password'] ?? randomBytes(12).toString('base64url');
          const existing = await idp.accounts.findByEmail(email);
          if (existing) await idp.accounts.setPassword(existing.id, password);
          else await idp.accounts.createAccount({ email, name: adminName, password });
          await idp.close();
          console.log(
            values['admin-password'] ? 'Password set as given.' : `Password: ${password}`,
          );
        }
        break;
      }
      case 'set-flag': {
        const name = required(values.name, '--name');
        const value = booleanValue(values.value);
        await createFeatureFlags(database, config.featureFlagDefaults).set(name, value);
        console.log(`Feature flag ${name} = ${value}.`);
        break;
      }
      case 'set-tenant-setting': {
        const tenantId = required(values.tenant, '--tenant');
        const name = required(values.name, '--name');
        if (!(tenantSettingNames as readonly string[]).includes(name)) {
          throw new Error(`Unknown setting ${name}. Known: ${tenantSettingNames.join(', ')}.`);
        }
        const value = String(booleanValue(values.value));
        const [tenant] = await database.db.select().from(tenants).where(eq(tenants.id, tenantId));
        if (!tenant) throw new Error(`No tenant ${tenantId}.`);
        await database.db
          .insert(tenantSettings)
          .values({ tenantId, name, value })
          .onConflictDoUpdate({
            target: [tenantSettings.tenantId, tenantSettings.name],
            set: { value, updatedAt: new Date() },
          });
        console.log(`${tenant.name}: ${name} = ${value}.`);
        break;
      }
      case 'set-bank-rate': {
        const change = await setBankRate(
          database,
          required(values.from, '--from'),
          required(values.rate, '--rate'),
        );
        console.log(`Bank Rate ${change.rate}% from ${change.from}.`);
        break;
      }
      case 'rotate-secrets-key': {
        const source = loadSecretsKey(config);
        const oldKey = values['old-key'] ? parseSecretsKey(values['old-key']) : source.key;
        const newKeyText = values['new-key'] ?? generateSecretsKey();
        const newKey = parseSecretsKey(newKeyText);
        // The key file is replaced only after the commit; until then the next key waits beside it.
        const pending = source.file ? `${source.file}.next` : null;
        if (pending) writeFileSync(pending, `${newKeyText}\n`, { mode: 0o600 });
        const { resealed, alreadyNew } = await rotateProviderSecrets(
          database,
          createSecretBox(oldKey),
          createSecretBox(newKey),
        );
        console.log(
          `Re-encrypted ${resealed} payment provider configuration(s) with key ${keyIdOf(newKey)}${alreadyNew ? ` (${alreadyNew} already were)` : ''}.`,
        );
        if (pending && source.file) {
          renameSync(pending, source.file);
          console.log(`The key file ${source.file} now holds the new key.`);
        } else {
          console.log(
            values['new-key']
              ? 'Set SECRETS_KEY to the new key before starting the server.'
              : `Set SECRETS_KEY to the new key before starting the server:\n${newKeyText}`,
          );
        }
        break;
      }
      default:
        throw new Error(`Unknown command ${command}.\n\n${usage}`);
    }
  } finally {
    await database.close();
    release();
  }
}

function required(value: string | undefined, flag: string): string {
  if (!value || !value.trim()) throw new Error(`${flag} is required.`);
  return value.trim();
}

function booleanValue(value: string | undefined): boolean {
  if (value !== 'true' && value !== 'false') throw new Error('--value must be true or false.');
  return value === 'true';
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
