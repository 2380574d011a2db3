import { z } from 'zod';
import {
  filterCountOf,
  paymentProviderMessages,
  paymentProviderType,
  providerKindSchemas,
  secretSentinel,
  tranSafeTestCredentials,
  type PaymentMethodConfiguration,
  type PaymentProvider,
  type PaymentProviderName,
  type PaymentProviderSummary,
} from '@ledgerline/contract';
import { ValidationError } from '../../platform/errors.js';
import type { PaymentProviderRow } from './payment-providers.repository.js';
import { isP521PrivateKey } from '../../providers/truelayer/truelayer.signing.js';

/**
 * The rules of a configuration's form and its stored values (spec 3 §3–§5): what the answers
 * show, which secrets are kept, whether it is a test configuration. No database, no provider.
 */

export type Credentials = Record<string, unknown>;

const secretLabels: Record<string, string> = {
  password: 'Password',
  adminPassword: 'Admin password',
  integrationPassword: 'Integration password',
  clientSecret: 'Client Secret',
  accessToken: 'Access token',
  signingPrivateKey: 'Signing private key',
};

/** The credential fields a form shows for a kind (its schema's keys). */
function formCredentialKeys(providerName: PaymentProviderName): string[] {
  const schema = providerKindSchemas[providerName].credentials;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** spec 3 §3: whether a configuration talks to the provider's test system. */
export function isTestOf(
  providerName: PaymentProviderName,
  settings: Credentials,
  credentials: Credentials,
  requested: boolean,
): boolean {
  switch (providerName) {
    case 'Sandbox':
      return true;
    case 'TranSafe':
      return settings.useTestSite === true;
    case 'Opayo':
      return settings.useTestServer === true;
    case 'TrueLayer':
    case 'Oppwa':
      return credentials.useSandbox === true;
    default:
      return requested;
  }
}

/** A new configuration without method configurations gets one per type the provider supports. */
export function methodConfigurationsOf(
  providerName: PaymentProviderName,
  given: PaymentMethodConfiguration[],
): PaymentMethodConfiguration[] {
  if (given.length > 0) return given;
  const type = paymentProviderType(providerName)!;
  return type.paymentMethodTypesInfo.map((info) => ({
    paymentMethodType: info.paymentMethodType,
    enabled: true,
    filterGroup: null,
  }));
}

export function summaryOf(row: PaymentProviderRow): PaymentProviderSummary {
  const paymentMethodConfigurations =
    row.paymentMethodConfigurations as PaymentMethodConfiguration[];
  return {
    id: row.id,
    providerName: row.providerName as PaymentProviderName,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    displayPriority: row.displayPriority,
    isTest: row.isTest,
    isDefault: row.isDefault,
    filterCount: filterCountOf(paymentMethodConfigurations),
    settings: row.settings as Record<string, unknown>,
    paymentMethodConfigurations,
    createdOn: row.createdOn.toISOString(),
    updatedOn: row.updatedOn.toISOString(),
  };
}

/** The form's credentials: every stored secret as the sentinel, server-only values left out. */
export function detailOf(row: PaymentProviderRow, stored: Credentials): PaymentProvider {
  const providerName = row.providerName as PaymentProviderName;
  const secretKeys = new Set(providerKindSchemas[providerName].secrets);
  const credentials: Credentials = {};
  for (const key of formCredentialKeys(providerName)) {
    const value = stored[key] ?? null;
    credentials[key] =
      secretKeys.has(key) && value !== null && value !== '' ? secretSentinel : value;
  }
  return { ...summaryOf(row), credentials };
}

/**
 * The credentials to store: the form's, with a secret sent as the sentinel kept from `stored`,
 * and the values a connection flow set (server managed) kept as they are.
 */
export function credentialsToStore(
  providerName: PaymentProviderName,
  settings: Credentials,
  given: Credentials,
  stored: Credentials,
): Credentials {
  const kind = providerKindSchemas[providerName];
  if (providerName === 'TranSafe' && settings.useTestSite === true) {
    // spec 3 §4: the test switch uses fixed placeholder credentials.
    return { ...tranSafeTestCredentials };
  }
  const next: Credentials = { ...stored };
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(given)) {
    if (kind.serverManaged.includes(key)) continue;
    if (kind.secrets.includes(key) && value === secretSentinel) {
      const kept = stored[key];
      if (typeof kept !== 'string' || kept === '')
        errors[`credentials.${key}`] = [`${secretLabels[key] ?? key} is required.`];
      continue;
    }
    // A new TrueLayer signing key must be one TrueLayer can check (EC P-521).
    if (
      providerName === 'TrueLayer' &&
      key === 'signingPrivateKey' &&
      typeof value === 'string' &&
      !isP521PrivateKey(value)
    )
      errors[`credentials.${key}`] = [paymentProviderMessages.signingPrivateKey];
    next[key] = value;
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return next;
}
