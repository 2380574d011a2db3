import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authoriseStart,
  goCardlessCompleteQuery,
  goCardlessCompleteResult,
  goCardlessCreditorSchema,
  opayoTestBody,
  opayoTestResult,
  stripeAccountSchema,
  stripeConnectQuery,
  stripeConnectResult,
  stripeConnectStartBody,
  stripeKeysSchema,
  tranSafeTestBody,
  connectionTestResult,
  oppwaTestBody,
  trueLayerTestBody,
  tranSafeTestResult,
  uuidParam,
} from '@ledgerline/contract';
import type { Database } from '../../db/client.js';
import { requirePrincipal } from '../../platform/context.js';
import { datasetScopeOf } from '../../platform/scope.js';
import {
  oauthStateLifetimeMinutes,
  type ProviderConnections,
  type StateOwner,
  type Transactions,
} from './provider-connections.service.js';

/** The caller an authorisation's state is bound to: the signed-in session, else the access key (or user). */
function ownerOf(request: FastifyRequest): StateOwner {
  const principal = requirePrincipal(request.principal);
  if (principal.session) return `session:${principal.session.idHash}`;
  if (principal.accessKeyId) return `key:${principal.accessKeyId}`;
  return `user:${principal.userId ?? ''}`;
}

/** The request's transactions for a connection call: its reads, its writes, and kept provider events. */
export const transactionsFor = (database: Database, request: FastifyRequest): Transactions => ({
  read: (fn) => request.tenantRead(fn),
  write: (fn, status) => request.unitOfWork(fn, status),
  record: (fn) => database.withTenant(requirePrincipal(request.principal).tenantId, fn),
});

const permission = 'ConfigurePaymentProvider' as const;
const access = 'dataset' as const;
const secretNote = 'A password sent as the sentinel uses the stored one of `paymentProviderId`.';

const routerOf = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();
type Router = ReturnType<typeof routerOf>;

/** What the connection routes call: the flows and tests, and the request's transactions. */
interface RouteContext {
  connections: ProviderConnections;
  transactionsOf: (request: FastifyRequest) => Transactions;
}

function stripeKeysRoute(r: Router, { connections }: RouteContext) {
  r.get(
    '/api/v0/stripe/keys',
    {
      config: { access, permission },
      schema: {
        tags: ['stripe'],
        summary: "The platform's Stripe mode and Connect client id",
        response: { 200: stripeKeysSchema },
      },
    },
    async () => connections.stripeKeys(),
  );
}

function stripeConnectStartRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/stripe/account/connect/start',
    {
      config: { access, permission, operation: 'StartStripeConnect' },
      schema: {
        tags: ['stripe'],
        summary:
          "Start a Stripe Connect authorisation: Stripe's address with a state the server issued",
        description:
          'The state (configuration id or empty | 0 add, 1 edit | test or live | random) is bound to this session and company, ' +
          `spent once by the return, and expires after ${oauthStateLifetimeMinutes} minutes. ` +
          "404 for a configuration that is not this company's; 400 'Invalid payment provider type' for one that is not Stripe.",
        body: stripeConnectStartBody,
        response: { 200: authoriseStart },
      },
    },
    async (request) => {
      if (request.body.paymentProviderId)
        request.auditResource = { type: 'PaymentProvider', id: request.body.paymentProviderId };
      return connections.stripeStart(
        transactionsOf(request),
        datasetScopeOf(request),
        ownerOf(request),
        request.body.paymentProviderId,
      );
    },
  );
}

function stripeConnectRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/stripe/account/connect',
    {
      config: { access, permission, operation: 'ConnectStripeAccount' },
      schema: {
        tags: ['stripe'],
        summary: 'Complete a Stripe Connect authorisation (the return route posts code and state)',
        description:
          "state: the one `stripe/account/connect/start` issued to this session: the configuration id (empty when adding), the mode (0 add, 1 edit), test or live, and a random part, separated by '|'. " +
          "400: 'State should contain 2 items', 'Test mode does not match', 'Invalid payment provider type', 'Unable to add Stripe configuration', or Stripe's own message; " +
          "400 AuthorisationStateRefused: a state this session was not given (another session's, company's or tenant's), or one spent or expired.",
        querystring: stripeConnectQuery,
        response: { 200: stripeConnectResult },
      },
    },
    async (request) => {
      const result = await connections.stripeConnect(
        transactionsOf(request),
        datasetScopeOf(request),
        ownerOf(request),
        request.query,
      );
      request.auditResource = { type: 'PaymentProvider', id: result.paymentProviderId };
      return result;
    },
  );
}

function stripeAccountRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.get(
    '/api/v0/stripe/payment-provider/:id/account',
    {
      config: { access, permission },
      schema: {
        tags: ['stripe'],
        summary: 'The connected Stripe account (valid false when Stripe will not show it)',
        description: '409 StripeNotConnected without an account.',
        params: uuidParam,
        response: { 200: stripeAccountSchema },
      },
    },
    async (request) =>
      connections.stripeAccount(
        transactionsOf(request),
        datasetScopeOf(request),
        request.params.id,
      ),
  );
}

function stripeDisconnectRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/stripe/payment-provider/:id/account/disconnect',
    {
      config: { access, permission, operation: 'DisconnectStripeAccount' },
      schema: {
        tags: ['stripe'],
        summary: 'Deauthorise the platform at Stripe, then clear the account id',
        params: uuidParam,
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'PaymentProvider', id: request.params.id };
      await connections.stripeDisconnect(
        transactionsOf(request),
        datasetScopeOf(request),
        request.params.id,
      );
      return reply.status(204).send();
    },
  );
}

function goCardlessStartRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/gocardless/authorise/start',
    {
      config: { access, permission, operation: 'StartGoCardlessAuthorisation' },
      schema: {
        tags: ['gocardless'],
        summary:
          "GoCardless's authorisation address for this server, with a state the server issued",
        description: `The state is bound to this session and company, spent once by the completion, and expires after ${oauthStateLifetimeMinutes} minutes.`,
        response: { 200: authoriseStart },
      },
    },
    async (request) =>
      connections.goCardlessStart(
        transactionsOf(request),
        datasetScopeOf(request),
        ownerOf(request),
      ),
  );
}

function goCardlessCompleteRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/gocardless/authorise/complete',
    {
      config: { access, permission, operation: 'AuthoriseGoCardless' },
      schema: {
        tags: ['gocardless'],
        summary: 'Exchange the authorisation code and add the GoCardless configuration',
        description:
          'state: the one `gocardless/authorise/start` issued to this session. 400 AuthorisationStateRefused: a missing state, one this session was not given, or one spent or expired.',
        querystring: goCardlessCompleteQuery,
        response: { 200: goCardlessCompleteResult },
      },
    },
    async (request) => {
      const result = await connections.goCardlessComplete(
        transactionsOf(request),
        datasetScopeOf(request),
        ownerOf(request),
        request.query,
      );
      if (result.paymentProviderId)
        request.auditResource = { type: 'PaymentProvider', id: result.paymentProviderId };
      return result;
    },
  );
}

function goCardlessCreditorRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.get(
    '/api/v0/gocardless/payment-provider/:id/creditor',
    {
      config: { access, permission },
      schema: {
        tags: ['gocardless'],
        summary: "The creditor's verification status and where to continue onboarding",
        params: uuidParam,
        response: { 200: goCardlessCreditorSchema },
      },
    },
    async (request) =>
      connections.goCardlessCreditor(
        transactionsOf(request),
        datasetScopeOf(request),
        request.params.id,
      ),
  );
}

function tranSafeTestRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/transafe/admin/test-connection',
    {
      config: { access, permission, operation: 'TestTranSafeConnection' },
      schema: {
        tags: ['transafe'],
        summary: 'Test TranSafe credentials (a read-only call)',
        description: secretNote,
        body: tranSafeTestBody,
        response: { 200: tranSafeTestResult },
      },
    },
    async (request) =>
      connections.tranSafeTest(transactionsOf(request), datasetScopeOf(request), request.body),
  );
}

function trueLayerTestRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/truelayer/admin/test-connection',
    {
      config: { access, permission, operation: 'TestTrueLayerConnection' },
      schema: {
        tags: ['truelayer'],
        summary: 'Test TrueLayer client credentials (a client-credentials token, scope payments)',
        description:
          'A client secret sent as the sentinel uses the stored one of `paymentProviderId`.',
        body: trueLayerTestBody,
        response: { 200: connectionTestResult },
      },
    },
    async (request) =>
      connections.trueLayerTest(transactionsOf(request), datasetScopeOf(request), request.body),
  );
}

function oppwaTestRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/oppwa/admin/test-connection',
    {
      config: { access, permission, operation: 'TestOppwaConnection' },
      schema: {
        tags: ['oppwa'],
        summary:
          'Test Total Processing (OPPWA) credentials (a 1.00 GBP checkout; nothing is charged)',
        description:
          'An access token sent as the sentinel uses the stored one of `paymentProviderId`.',
        body: oppwaTestBody,
        response: { 200: connectionTestResult },
      },
    },
    async (request) =>
      connections.oppwaTest(transactionsOf(request), datasetScopeOf(request), request.body),
  );
}

function opayoTestRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/opayo/admin/test-connection',
    {
      config: { access, permission, operation: 'TestOpayoConnection' },
      schema: {
        tags: ['opayo'],
        summary: 'Test Opayo admin credentials (signed `version` command)',
        description: `errorCode: 0008, 0010, 0011, 3002 (spec 3 §8). ${secretNote}`,
        body: opayoTestBody,
        response: { 200: opayoTestResult },
      },
    },
    async (request) =>
      connections.opayoTest(transactionsOf(request), datasetScopeOf(request), request.body),
  );
}

function opayoRegisterIpRoute(r: Router, { connections, transactionsOf }: RouteContext) {
  r.post(
    '/api/v0/opayo/admin/register-ip',
    {
      config: { access, permission, operation: 'RegisterOpayoIp' },
      schema: {
        tags: ['opayo'],
        summary: "Register this server's IP address (OPAYO_SERVER_IP) with Opayo",
        description: secretNote,
        body: opayoTestBody,
        response: { 200: opayoTestResult },
      },
    },
    async (request) =>
      connections.opayoRegisterIp(transactionsOf(request), datasetScopeOf(request), request.body),
  );
}

/**
 * spec 3 §4, §7, §8 the providers' connection flows and tests. Every provider call happens between
 * the request's transactions, never inside one (style.md §7). All need ConfigurePaymentProvider.
 */
export async function providerConnectionsRoutes(
  app: FastifyInstance,
  options: { connections: ProviderConnections; database: Database },
) {
  const r = routerOf(app);
  const { connections } = options;
  const transactionsOf = (request: FastifyRequest) => transactionsFor(options.database, request);

  const context: RouteContext = { connections, transactionsOf };
  stripeKeysRoute(r, context);
  stripeConnectStartRoute(r, context);
  stripeConnectRoute(r, context);
  stripeAccountRoute(r, context);
  stripeDisconnectRoute(r, context);
  goCardlessStartRoute(r, context);
  goCardlessCompleteRoute(r, context);
  goCardlessCreditorRoute(r, context);
  tranSafeTestRoute(r, context);
  trueLayerTestRoute(r, context);
  oppwaTestRoute(r, context);
  opayoTestRoute(r, context);
  opayoRegisterIpRoute(r, context);
}
