import {
  paymentProviderMessages,
  paymentProviderType,
  type CreatePaymentProviderInput,
  type PageQuery,
  type PaymentProvider,
  type UpdatePaymentProviderInput,
  type paymentProviderQuery,
} from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import type { SecretBox } from '../../platform/secrets.js';
import {
  credentialsToStore,
  detailOf,
  isTestOf,
  methodConfigurationsOf,
  summaryOf,
  type Credentials,
} from './payment-provider-forms.js';
import type {
  PaymentProviderRow,
  PaymentProvidersRepository,
} from './payment-providers.repository.js';
import type { ProviderGates } from './provider-gates.js';

export type { Credentials } from './payment-provider-forms.js';

type ProviderFields = (typeof paymentProviderQuery)['fields'];

interface ServiceDeps {
  repository: PaymentProvidersRepository;
  secrets: SecretBox;
  /** Feature flags, tenant settings and demo companies that withhold kinds. */
  gates: ProviderGates;
}

const nameTaken = () =>
  new ConflictError(paymentProviderMessages.nameExists, 'PaymentProviderNameExists');
const notFound = () => new NotFoundError(paymentProviderMessages.notFound);

function uniqueViolation(error: unknown, constraint: string): boolean {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError.code === '23505' && pgError.constraint === constraint;
}

async function guardName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error, 'payment_providers_name_key')) throw nameTaken();
    throw error;
  }
}

const openOf = (d: ServiceDeps, row: PaymentProviderRow): Credentials =>
  JSON.parse(d.secrets.open(row.credentialsSealed)) as Credentials;

async function findRow(
  d: ServiceDeps,
  tx: Tx,
  scope: DatasetScope,
  id: string,
): Promise<PaymentProviderRow> {
  const row = await d.repository.find(tx, scope, id);
  if (!row) throw notFound();
  return row;
}

/** The stored values of a form (add or edit) and the credentials it keeps. */
function valuesOf(
  d: ServiceDeps,
  input: CreatePaymentProviderInput | UpdatePaymentProviderInput,
  credentials: Credentials,
) {
  return {
    name: input.name,
    description: input.description,
    enabled: input.enabled,
    displayPriority: input.displayPriority,
    isTest: isTestOf(input.providerName, input.settings, credentials, input.isTest),
    settings: input.settings,
    credentialsSealed: d.secrets.seal(JSON.stringify(credentials)),
    paymentMethodConfigurations: methodConfigurationsOf(
      input.providerName,
      input.paymentMethodConfigurations,
    ),
  };
}

/** spec 3 §4: the first configuration of a company becomes its default. */
async function create(
  d: ServiceDeps,
  tx: Tx,
  scope: DatasetScope,
  input: CreatePaymentProviderInput,
  serverCredentials: Credentials = {},
): Promise<PaymentProvider> {
  const { repository, gates } = d;
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
      ...valuesOf(d, input, credentials),
    }),
  );
  if ((await repository.defaultId(tx, scope)) === null) {
    await repository.setDefault(tx, scope, row.id);
    return detailOf({ ...row, isDefault: true }, credentials);
  }
  return detailOf(row, credentials);
}

async function update(
  d: ServiceDeps,
  tx: Tx,
  scope: DatasetScope,
  input: UpdatePaymentProviderInput,
): Promise<PaymentProvider> {
  const { repository, gates } = d;
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
    openOf(d, stored),
  );
  const row = await guardName(() =>
    repository.update(tx, scope, input.id, valuesOf(d, input, credentials)),
  );
  return detailOf(row!, credentials);
}

/** Credentials a connection flow sets (Stripe account, GoCardless token), merged into the stored ones. */
async function setServerCredentials(
  d: ServiceDeps,
  tx: Tx,
  scope: DatasetScope,
  id: string,
  changes: Credentials,
): Promise<PaymentProvider> {
  const stored = await d.repository.findForUpdate(tx, scope, id);
  if (!stored) throw notFound();
  const credentials = { ...openOf(d, stored), ...changes };
  const row = await d.repository.update(tx, scope, id, {
    credentialsSealed: d.secrets.seal(JSON.stringify(credentials)),
  });
  return detailOf(row!, credentials);
}

/** The configurations' default: read, set, and whether one configuration is it. */
function defaults(d: ServiceDeps) {
  return {
    defaultOf: async (tx: Tx, scope: DatasetScope) => ({
      paymentProviderId: await d.repository.defaultId(tx, scope),
    }),

    async setDefault(tx: Tx, scope: DatasetScope, id: string) {
      if (!(await d.repository.setDefault(tx, scope, id))) throw notFound();
      return { paymentProviderId: id };
    },

    async isDefault(tx: Tx, scope: DatasetScope, id: string) {
      const row = await findRow(d, tx, scope, id);
      return { isDefault: row.isDefault };
    },
  };
}

/**
 * spec 3 §2–§5 provider configurations of a company. Credentials are sealed before they reach
 * the repository and never leave the service in clear except through `credentialsFor`, which the
 * provider adapters use (docs/decisions/046-provider-credentials-at-rest.md, "Provider credentials at rest").
 */
export function createPaymentProvidersService(deps: ServiceDeps) {
  const d = deps;
  const open = (row: PaymentProviderRow) => openOf(d, row);
  return {
    async page(tx: Tx, scope: DatasetScope, query: PageQuery<ProviderFields>) {
      const { rows, totalItems } = await d.repository.page(tx, scope, query);
      return { items: rows.map(summaryOf), totalItems };
    },

    async get(tx: Tx, scope: DatasetScope, id: string): Promise<PaymentProvider> {
      const row = await findRow(d, tx, scope, id);
      return detailOf(row, open(row));
    },

    /** A payment's configuration for its adapter; null when it no longer exists. */
    async configurationFor(tx: Tx, scope: DatasetScope, id: string) {
      const row = await d.repository.find(tx, scope, id);
      return row ? { isTest: row.isTest, credentials: open(row) } : null;
    },

    /**
     * A row read before its tenant was known (a provider's notification names only the
     * configuration), with its credentials in clear, for the adapter's signature check.
     */
    withCredentials: (row: PaymentProviderRow) => ({ row, credentials: open(row) }),

    /** The row and its credentials in clear, for a provider call (never for an answer). */
    async credentialsFor(tx: Tx, scope: DatasetScope, id: string) {
      const row = await findRow(d, tx, scope, id);
      return { row, credentials: open(row) };
    },

    create: create.bind(null, d),
    update: update.bind(null, d),
    setServerCredentials: setServerCredentials.bind(null, d),

    async remove(tx: Tx, scope: DatasetScope, id: string): Promise<void> {
      if (!(await d.repository.remove(tx, scope, id))) throw notFound();
    },

    ...defaults(d),
  };
}
export type PaymentProvidersService = ReturnType<typeof createPaymentProvidersService>;
