import { providerModule } from '../provider-module.js';
import { createGoCardlessAdapter } from './gocardless.adapter.js';
import { createGoCardlessCheckout } from './gocardless.checkout.js';
import { createGoCardlessConnect } from './gocardless.connect.js';

/** GoCardless: the billing request flow on the payer page, added through its OAuth authorisation. */
export const goCardlessProvider = providerModule({
  name: 'GoCardless',
  checkout: (config) =>
    createGoCardlessCheckout({
      live: config.GOCARDLESS_LIVE,
      apiUrl: config.GOCARDLESS_API_URL,
      webhookSecret: config.GOCARDLESS_WEBHOOK_SECRET,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
  adapter: (config) =>
    createGoCardlessAdapter({
      live: config.GOCARDLESS_LIVE,
      apiUrl: config.GOCARDLESS_API_URL,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
  connection: (config) =>
    createGoCardlessConnect({
      live: config.GOCARDLESS_LIVE,
      connectUrl: config.GOCARDLESS_CONNECT_URL,
      apiUrl: config.GOCARDLESS_API_URL,
      verifyUrl: config.GOCARDLESS_VERIFY_URL,
      clientId: config.GOCARDLESS_CLIENT_ID,
      clientSecret: config.GOCARDLESS_CLIENT_SECRET,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
});
