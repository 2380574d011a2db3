import { area, type AppContext, type Area } from '../../platform/area.js';
import { createProviderClients } from '../../providers/registry.js';
import { createOutgoingIp } from '../../providers/opayo/outgoing-ip.js';
import { createDemoSandbox } from './demo-sandbox.js';
import { createPaymentProviderEventsRepository } from './payment-provider-events.repository.js';
import { paymentProviderEventsRoutes } from './payment-provider-events.routes.js';
import { createPaymentProviderEventsService } from './payment-provider-events.service.js';
import { createPaymentProvidersRepository } from './payment-providers.repository.js';
import { paymentProvidersRoutes } from './payment-providers.routes.js';
import {
  createPaymentProvidersService,
  type PaymentProvidersService,
} from './payment-providers.service.js';
import { createProviderConnections } from './provider-connections.service.js';
import { providerConnectionsRoutes } from './provider-connections.routes.js';
import { createProviderGates, type ProviderGates } from './provider-gates.js';

export interface PaymentProvidersLends {
  service: PaymentProvidersService;
  /** Which providers a company may use (their feature flags). */
  gates: ProviderGates;
  /** A demo company's Sandbox configuration, its default, which its payments name. */
  ensureDemoSandbox: ReturnType<typeof createDemoSandbox>;
}

/**
 * Payment providers: the company's configurations, their connection tests and registrations with
 * the provider, and the provider exchanges kept as their events.
 */
export function paymentProvidersArea(ctx: AppContext): Area<PaymentProvidersLends> {
  const { config, database, secrets } = ctx;
  const repository = createPaymentProvidersRepository();
  const gates = createProviderGates(config.featureFlagDefaults);
  const service = createPaymentProvidersService({ repository, secrets, gates });
  const events = createPaymentProviderEventsRepository();
  const connections = createProviderConnections({
    providers: service,
    repository,
    events,
    clients: createProviderClients(config),
    publicUrl: config.publicUrl,
    opayoServerIp: createOutgoingIp({
      configured: config.OPAYO_SERVER_IP,
      lookupUrl: config.OPAYO_IP_LOOKUP_URL,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
  });
  const ensureDemoSandbox = createDemoSandbox({ repository, secrets });
  return area({ service, gates, ensureDemoSandbox }, async (app) => {
    await app.register(paymentProvidersRoutes, { providers: service, connections, database });
    await app.register(providerConnectionsRoutes, { connections, database });
    await app.register(paymentProviderEventsRoutes, {
      events: createPaymentProviderEventsService({ providers: repository, events }),
    });
  });
}
