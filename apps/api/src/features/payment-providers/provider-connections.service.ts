import { createConnectionTests } from './connection-tests.service.js';
import { createGoCardlessConnection } from './gocardless-connection.service.js';
import {
  createConnectionSupport,
  type ProviderConnectionsDeps,
} from './provider-connections.support.js';
import { createStripeConnection } from './stripe-connection.service.js';

export {
  oauthStateLifetimeMinutes,
  type ProviderConnectionsDeps,
  type StateOwner,
  type Transactions,
} from './provider-connections.support.js';

/**
 * spec 3 §4, §8 the providers' connection flows (Stripe's account link, GoCardless's
 * authorisation) and the connection tests of the add and edit forms.
 */
export function createProviderConnections(deps: ProviderConnectionsDeps) {
  const support = createConnectionSupport(deps);
  return {
    ...createStripeConnection(support),
    ...createGoCardlessConnection(support),
    ...createConnectionTests(support),
  };
}
export type ProviderConnections = ReturnType<typeof createProviderConnections>;
