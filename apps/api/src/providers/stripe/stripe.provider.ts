import { providerModule } from '../provider-module.js';
import { createStripeAdapter } from './stripe.adapter.js';
import { createStripeCheckout } from './stripe.checkout.js';
import { createStripeConnect } from './stripe.connect.js';

/** Stripe: Checkout on the payer page, the merchant's account linked through Stripe Connect. */
export const stripeProvider = providerModule({
  name: 'Stripe',
  checkout: (config) =>
    createStripeCheckout({
      apiUrl: config.STRIPE_API_URL,
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
  adapter: (config) =>
    createStripeAdapter({
      apiUrl: config.STRIPE_API_URL,
      secretKey: config.STRIPE_SECRET_KEY,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
  connection: (config) =>
    createStripeConnect({
      connectUrl: config.STRIPE_CONNECT_URL,
      apiUrl: config.STRIPE_API_URL,
      secretKey: config.STRIPE_SECRET_KEY,
      clientId: config.STRIPE_CONNECT_CLIENT_ID,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
    }),
});
