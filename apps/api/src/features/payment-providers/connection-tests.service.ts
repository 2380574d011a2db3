import {
  opayoErrorText,
  providerConnectionMessages as messages,
  secretSentinel,
  type OpayoTestResult,
  type PaymentProviderName,
} from '@ledgerline/contract';
import { AppError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import type { ExchangeRecorder } from '../../providers/recorded-fetch.js';
import { TrueLayerTokenError } from '../../providers/truelayer/truelayer.checkout.js';
import type { Credentials } from './payment-providers.service.js';
import {
  exchangeLog,
  reach,
  type ConnectionSupport,
  type ProviderConnectionsDeps,
  type Transactions,
} from './provider-connections.support.js';

/** What every connection test is given: the form's values, and the configuration it edits. */
type TestInput = { paymentProviderId?: string | null };

/**
 * One provider's connection test, in the one shape they all have: the secret the form sent (the
 * sentinel stands for the stored credential `secretKey`), the provider call with it, and the
 * answer when the provider could not be reached or refused the call.
 */
interface ConnectionTest<I extends TestInput, R> {
  kind: PaymentProviderName;
  secretKey: string;
  secretOf(input: I): string;
  call(
    deps: ProviderConnectionsDeps,
    input: I,
    secret: string,
    recorder: ExchangeRecorder,
  ): Promise<R>;
  unreachable(message: string): R;
}

/** Runs a test: the secret, the call, and the exchanges kept with the configuration it names. */
async function runTest<I extends TestInput, R>(
  c: ConnectionSupport,
  test: ConnectionTest<I, R>,
  db: Transactions,
  scope: DatasetScope,
  input: I,
): Promise<R> {
  const id = input.paymentProviderId;
  const secret = await c.secretOf(db, scope, test.kind, test.secretOf(input), id, test.secretKey);
  const { exchanges, recorder } = exchangeLog();
  const result = await reach(
    () => test.call(c.deps, input, secret, recorder),
    (message) => test.unreachable(message),
  );
  await c.keepForTest(db, scope, test.kind, id, exchanges);
  return result;
}

const failedWith = (message: string) => ({ success: false, message });

type TranSafeInput = TestInput & { userName: string; password: string; useTestServer: boolean };
const tranSafeTest: ConnectionTest<TranSafeInput, { success: boolean; message: string }> = {
  kind: 'TranSafe',
  secretKey: 'password',
  secretOf: (input) => input.password,
  call: (deps, input, password, recorder) =>
    deps.clients.TranSafe.testConnection(
      { useTestServer: input.useTestServer, userName: input.userName, password },
      recorder,
    ),
  unreachable: failedWith,
};

/** A client-credentials token for the client proves its id and secret. */
type TrueLayerInput = TestInput & { clientId: string; clientSecret: string; useSandbox: boolean };
const trueLayerTest: ConnectionTest<TrueLayerInput, { success: boolean; message: string }> = {
  kind: 'TrueLayer',
  secretKey: 'clientSecret',
  secretOf: (input) => input.clientSecret,
  async call(deps, input, clientSecret, recorder) {
    try {
      const credentials = { clientId: input.clientId, clientSecret, useSandbox: input.useSandbox };
      await deps.clients.TrueLayer.token({ credentials }, recorder);
      return { success: true, message: messages.connectionTested };
    } catch (error) {
      if (error instanceof TrueLayerTokenError) return { success: false, message: error.message };
      throw error;
    }
  },
  unreachable: failedWith,
};

/** A 1.00 GBP checkout (nothing is charged) proves the access token and entity. */
type OppwaInput = TestInput & { entityId: string; accessToken: string; useSandbox: boolean };
const oppwaTest: ConnectionTest<OppwaInput, { success: boolean; message: string }> = {
  kind: 'Oppwa',
  secretKey: 'accessToken',
  secretOf: (input) => input.accessToken,
  call: (deps, input, accessToken, recorder) =>
    deps.clients.Oppwa.testConnection(
      { useSandbox: input.useSandbox, entityId: input.entityId, accessToken },
      recorder,
    ),
  unreachable: failedWith,
};

type OpayoInput = TestInput & {
  vendor: string;
  user: string;
  password: string;
  useTestServer: boolean;
};
type OpayoAnswer = { errorCode: string; error: string | null };

/** Opayo's admin API answers 0000 for success, else an error code and its text. */
const opayoResult = (answer: OpayoAnswer): OpayoTestResult =>
  answer.errorCode === '0000'
    ? { success: true, errorCode: null, detail: null }
    : { success: false, errorCode: answer.errorCode, detail: answer.error };

/** Opayo's admin calls (a test, an address registration) with the admin user's password. */
function opayoAdminCall(
  call: (
    deps: ProviderConnectionsDeps,
    admin: Omit<OpayoInput, 'paymentProviderId'>,
    recorder: ExchangeRecorder,
  ) => Promise<OpayoAnswer>,
): ConnectionTest<OpayoInput, OpayoAnswer> {
  return {
    kind: 'Opayo',
    secretKey: 'adminPassword',
    secretOf: (input) => input.password,
    call: (deps, input, password, recorder) =>
      call(
        deps,
        { useTestServer: input.useTestServer, vendor: input.vendor, user: input.user, password },
        recorder,
      ),
    unreachable: (message) => ({ errorCode: 'HTTP', error: message }),
  };
}

const opayoTest = opayoAdminCall((deps, admin, recorder) =>
  deps.clients.Opayo.testConnection(admin, recorder),
);

/** Registers this server's address with Opayo (`addValidIPs`) with the given admin credentials. */
async function registerOpayoIp(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  input: OpayoInput,
): Promise<OpayoTestResult> {
  const outgoing = await c.deps.opayoServerIp();
  if (outgoing.ip === null) return { success: false, errorCode: null, detail: outgoing.problem };
  const ip = outgoing.ip;
  const register = opayoAdminCall((deps, admin, recorder) =>
    deps.clients.Opayo.registerIp({ ...admin, ip, note: 'Ledgerline' }, recorder),
  );
  return opayoResult(await runTest(c, register, db, scope, input));
}

/**
 * spec 3 §4 "UK provider with integration type Server first registers the IP address and stops
 * saving if that fails": the save of an Opayo Server configuration (add or edit, through any
 * client) registers this server's address first, before its transaction (style.md §7), and a
 * failure is a 400 that stops the save. Other kinds and Pi: nothing to do.
 */
async function registerIpForSave(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  input: {
    providerName: string;
    settings: Credentials;
    credentials: Credentials;
    id?: string | null;
  },
): Promise<void> {
  if (input.providerName !== 'Opayo' || input.settings.integrationType !== 'Server') return;
  const text = (key: string) =>
    typeof input.credentials[key] === 'string' ? (input.credentials[key] as string) : '';
  // A new configuration has no stored password: the save refuses the sentinel with its own message.
  if (text('adminPassword') === secretSentinel && !input.id) return;
  const result = await registerOpayoIp(c, db, scope, {
    vendor: text('vendorName'),
    user: text('adminUser'),
    password: text('adminPassword'),
    useTestServer: input.settings.useTestServer === true,
    paymentProviderId: input.id ?? null,
  });
  if (result.success) return;
  throw new AppError(
    400,
    'Bad Request',
    result.errorCode === null
      ? (result.detail ?? messages.opayoIpNotConfigured)
      : opayoErrorText(result.errorCode, result.detail),
    { errorCode: 'OpayoIpNotRegistered' },
  );
}

/** spec 3 §8 the connection tests of the add and edit forms, and Opayo's address registration. */
export function createConnectionTests(c: ConnectionSupport) {
  return {
    tranSafeTest: (db: Transactions, scope: DatasetScope, input: TranSafeInput) =>
      runTest(c, tranSafeTest, db, scope, input),
    trueLayerTest: (db: Transactions, scope: DatasetScope, input: TrueLayerInput) =>
      runTest(c, trueLayerTest, db, scope, input),
    oppwaTest: (db: Transactions, scope: DatasetScope, input: OppwaInput) =>
      runTest(c, oppwaTest, db, scope, input),
    opayoTest: async (db: Transactions, scope: DatasetScope, input: OpayoInput) =>
      opayoResult(await runTest(c, opayoTest, db, scope, input)),
    opayoRegisterIp: registerOpayoIp.bind(null, c),
    registerIpForSave: registerIpForSave.bind(null, c),
  };
}
