import type { DatasetScope } from '../../platform/scope.js';
import { z } from 'zod';
import {
  filterCountOf,
  paymentProviderMessages,
  paymentProviderType,
  providerKindSchemas,
  secretSentinel,
  tranSafeTestCredentials,
  type CreatePaymentProviderInput,
  type PageQuery,
  type PaymentMethodConfiguration,
  type PaymentProvider,
  type PaymentProviderName,
  type PaymentProviderSummary,
  type UpdatePaymentProviderInput,
  type paymentProviderQuery,
} from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { SecretBox } from '../../platform/secrets.js';
import type {
  PaymentProviderRow,
  PaymentProvidersRepository,
} from './payment-providers.repository.js';
import { isP521PrivateKey } from '../../providers/truelayer/truelayer.signing.js';
import type { ProviderGates } from './provider-gates.js';

type ProviderFields = (typeof paymentProviderQuery)['fields'];
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

const nameTaken = () =>
  new ConflictError(paymentProviderMessages.nameExists, 'PaymentProviderNameExists');

function uniqueViolation(error: unknown, constraint: string): boolean {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError.code === '23505' && pgError.constraint === constraint;
}

/** spec 3 §3: whether a configuration talks to the provider's test system. */
function isTestOf(
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
function methodConfigurationsOf(
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

/**
 * spec 3 §2–§5 provider configurations of a company. Credentials are sealed before they reach
 * the repository and never leave the service in clear except through `credentialsFor`, which the
 * provider adapters use (docs/decisions/046-provider-credentials-at-rest.md, "Provider credentials at rest").
 */
export function createPaymentProvidersService(deps: {
  repository: PaymentProvidersRepository;
  secrets: SecretBox;
  /** Feature flags, tenant settings and demo companies that withhold kinds (issue 20). */
  gates: ProviderGates;
}) {
  const { repository, secrets, gates } = deps;
  const notFound = () => new NotFoundError(paymentProviderMessages.notFound);

  const open = (row: PaymentProviderRow): Credentials =>
    JSON.parse(secrets.open(row.credentialsSealed)) as Credentials;

  function summaryOf(row: PaymentProviderRow): PaymentProviderSummary {
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
  function detailOf(row: PaymentProviderRow): PaymentProvider {
    const providerName = row.providerName as PaymentProviderName;
    const stored = open(row);
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
  function credentialsToStore(
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
      // Issue 19: a new TrueLayer signing key must be one TrueLayer can check (EC P-521).
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

  async function guardName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (uniqueViolation(error, 'payment_providers_name_key')) throw nameTaken();
      throw error;
    }
  }

  async function find(tx: Tx, scope: DatasetScope, id: string): Promise<PaymentProviderRow> {
    const row = await repository.find(tx, scope, id);
    if (!row) throw notFound();
    return row;
  }

  return {
    async page(tx: Tx, scope: DatasetScope, query: PageQuery<ProviderFields>) {
      const { rows, totalItems } = await repository.page(tx, scope, query);
      return { items: rows.map(summaryOf), totalItems };
    },

    get: async (tx: Tx, scope: DatasetScope, id: string): Promise<PaymentProvider> =>
      detailOf(await find(tx, scope, id)),

    /** A payment's configuration for its adapter; null when it no longer exists. */
    async configurationFor(tx: Tx, scope: DatasetScope, id: string) {
      const row = await repository.find(tx, scope, id);
      return row ? { isTest: row.isTest, credentials: open(row) } : null;
    },

    /**
     * A row read before its tenant was known (a provider's notification names only the
     * configuration), with its credentials in clear, for the adapter's signature check.
     */
    withCredentials: (row: PaymentProviderRow) => ({ row, credentials: open(row) }),

    /** The row and its credentials in clear, for a provider call (never for an answer). */
    async credentialsFor(tx: Tx, scope: DatasetScope, id: string) {
      const row = await find(tx, scope, id);
      return { row, credentials: open(row) };
    },

    /** spec 3 §4: the first configuration of a company becomes its default. */
    async create(
      tx: Tx,
      scope: DatasetScope,
      input: CreatePaymentProviderInput,
      serverCredentials: Credentials = {},
    ): Promise<PaymentProvider> {
      const type = paymentProviderType(input.providerName)!;
      if (type.addedByAuthorisation && Object.keys(serverCredentials).length === 0) {
        throw new ValidationError({ providerName: [paymentProviderMessages.addedByAuthorisation] });
      }
      gates.check(await gates.facts(tx, scope), input);
      if (await repository.nameTaken(tx, scope, input.name, null)) throw nameTaken();
      const credentials = {
        ...credentialsToStore(input.providerName, input.settings, input.credentials, {}),
        ...serverCredentials,
      };
      const row = await guardName(() =>
        repository.insert(tx, scope, uuidv7(), {
          providerName: input.providerName,
          name: input.name,
          description: input.description,
          enabled: input.enabled,
          displayPriority: input.displayPriority,
          isTest: isTestOf(input.providerName, input.settings, credentials, input.isTest),
          settings: input.settings,
          credentialsSealed: secrets.seal(JSON.stringify(credentials)),
          paymentMethodConfigurations: methodConfigurationsOf(
            input.providerName,
            input.paymentMethodConfigurations,
          ),
        }),
      );
      if ((await repository.defaultId(tx, scope)) === null) {
        await repository.setDefault(tx, scope, row.id);
        return detailOf({ ...row, isDefault: true });
      }
      return detailOf(row);
    },

    async update(
      tx: Tx,
      scope: DatasetScope,
      input: UpdatePaymentProviderInput,
    ): Promise<PaymentProvider> {
      const stored = await repository.findForUpdate(tx, scope, input.id);
      if (!stored) throw notFound();
      if (stored.providerName !== input.providerName) {
        throw new ValidationError({ providerName: [paymentProviderMessages.providerNameChanged] });
      }
      gates.check(await gates.facts(tx, scope), input, stored);
      if (await repository.nameTaken(tx, scope, input.name, input.id)) throw nameTaken();
      const credentials = credentialsToStore(
        input.providerName,
        input.settings,
        input.credentials,
        open(stored),
      );
      const row = await guardName(() =>
        repository.update(tx, scope, input.id, {
          name: input.name,
          description: input.description,
          enabled: input.enabled,
          displayPriority: input.displayPriority,
          isTest: isTestOf(input.providerName, input.settings, credentials, input.isTest),
          settings: input.settings,
          credentialsSealed: secrets.seal(JSON.stringify(credentials)),
          paymentMethodConfigurations: methodConfigurationsOf(
            input.providerName,
            input.paymentMethodConfigurations,
          ),
        }),
      );
      return detailOf(row!);
    },

    /** Credentials a connection flow sets (Stripe account, GoCardless token), merged into the stored ones. */
    async setServerCredentials(
      tx: Tx,
      scope: DatasetScope,
      id: string,
      changes: Credentials,
    ): Promise<PaymentProvider> {
      const stored = await repository.findForUpdate(tx, scope, id);
      if (!stored) throw notFound();
      const credentials = { ...open(stored), ...changes };
      const row = await repository.update(tx, scope, id, {
        credentialsSealed: secrets.seal(JSON.stringify(credentials)),
      });
      return detailOf(row!);
    },

    async remove(tx: Tx, scope: DatasetScope, id: string): Promise<void> {
      if (!(await repository.remove(tx, scope, id))) throw notFound();
    },

    defaultOf: async (tx: Tx, scope: DatasetScope) => ({
      paymentProviderId: await repository.defaultId(tx, scope),
    }),

    async setDefault(tx: Tx, scope: DatasetScope, id: string) {
      if (!(await repository.setDefault(tx, scope, id))) throw notFound();
      return { paymentProviderId: id };
    },

    async isDefault(tx: Tx, scope: DatasetScope, id: string) {
      const row = await find(tx, scope, id);
      return { isDefault: row.isDefault };
    },
  };
}
export type PaymentProvidersService = ReturnType<typeof createPaymentProvidersService>;
