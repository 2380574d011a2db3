import { providerModule } from '../provider-module.js';
import { createTrueLayerAdapter } from './truelayer.adapter.js';
import { createTrueLayerCheckout, trueLayerHostsOf } from './truelayer.checkout.js';

/** TrueLayer: bank payments on the payer page; the connection test asks for a token, as a payment would. */
export const trueLayerProvider = providerModule({
  name: 'TrueLayer',
  checkout: (config) =>
    createTrueLayerCheckout({ ...trueLayerHostsOf(config), timeoutMs: config.PROVIDER_TIMEOUT_MS }),
  adapter: (config) =>
    createTrueLayerAdapter({ ...trueLayerHostsOf(config), timeoutMs: config.PROVIDER_TIMEOUT_MS }),
  connection: (config) =>
    createTrueLayerCheckout({ ...trueLayerHostsOf(config), timeoutMs: config.PROVIDER_TIMEOUT_MS }),
});
