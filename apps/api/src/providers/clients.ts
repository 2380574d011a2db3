import type { Config } from '../config.js';
import { createGoCardlessConnect } from './gocardless/gocardless.connect.js';
import { createOpayoAdmin } from './opayo/opayo.admin.js';
import { createStripeConnect } from './stripe/stripe.connect.js';
import { createTranSafeAdmin } from './transafe/transafe.admin.js';
import { createOppwaAdmin } from './oppwa/oppwa.admin.js';
import { createTrueLayerCheckout, trueLayerHostsOf } from './truelayer/truelayer.checkout.js';
import type { PaymentProviderAdapter } from './adapter.js';
import { createGoCardlessAdapter } from './gocardless/gocardless.adapter.js';
import { createOpayoAdapter } from './opayo/opayo.adapter.js';
import { createOppwaAdapter } from './oppwa/oppwa.adapter.js';
import { createSandboxAdapter } from './sandbox/sandbox.adapter.js';
import { createStripeAdapter } from './stripe/stripe.adapter.js';
import { createTranSafeAdapter } from './transafe/transafe.adapter.js';
import { createTrueLayerAdapter } from './truelayer/truelayer.adapter.js';

/** The providers' HTTP clients, their base URLs and timeouts from configuration. */
export function createProviderClients(config: Config) {
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  return {
    stripe: createStripeConnect({
      connectUrl: config.STRIPE_CONNECT_URL,
      apiUrl: config.STRIPE_API_URL,
      secretKey: config.STRIPE_SECRET_KEY,
      clientId: config.STRIPE_CONNECT_CLIENT_ID,
      timeoutMs,
    }),
    goCardless: createGoCardlessConnect({
      live: config.GOCARDLESS_LIVE,
      connectUrl: config.GOCARDLESS_CONNECT_URL,
      apiUrl: config.GOCARDLESS_API_URL,
      verifyUrl: config.GOCARDLESS_VERIFY_URL,
      clientId: config.GOCARDLESS_CLIENT_ID,
      clientSecret: config.GOCARDLESS_CLIENT_SECRET,
      timeoutMs,
    }),
    opayo: createOpayoAdmin({
      testUrl: config.OPAYO_TEST_URL,
      liveUrl: config.OPAYO_LIVE_URL,
      timeoutMs,
    }),
    tranSafe: createTranSafeAdmin({
      testUrl: config.TRANSAFE_TEST_URL,
      liveUrl: config.TRANSAFE_LIVE_URL,
      timeoutMs,
    }),
    oppwa: createOppwaAdmin({
      testUrl: config.OPPWA_TEST_URL,
      liveUrl: config.OPPWA_LIVE_URL,
      timeoutMs,
    }),
    // The connection test asks for a token, as a payment would.
    trueLayer: createTrueLayerCheckout({ ...trueLayerHostsOf(config), timeoutMs }),
  };
}

/**
 * The adapters that capture and cancel pending payments (reserve-then-capture) and refund paid
 * ones, by the payment's provider name. GoCardless and TrueLayer payments are never held for
 * capture (their adapters refund only); Opayo's are through Pi.
 */
export function createPaymentAdapters(config: Config): PaymentProviderAdapter[] {
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  return [
    createSandboxAdapter(),
    createStripeAdapter({
      apiUrl: config.STRIPE_API_URL,
      secretKey: config.STRIPE_SECRET_KEY,
      timeoutMs,
    }),
    createOppwaAdapter({
      testUrl: config.OPPWA_TEST_URL,
      liveUrl: config.OPPWA_LIVE_URL,
      timeoutMs,
    }),
    createTranSafeAdapter({
      testUrl: config.TRANSAFE_TEST_URL,
      liveUrl: config.TRANSAFE_LIVE_URL,
      timeoutMs,
    }),
    createOpayoAdapter({
      testUrl: config.OPAYO_TEST_URL,
      liveUrl: config.OPAYO_LIVE_URL,
      timeoutMs,
    }),
    createGoCardlessAdapter({
      live: config.GOCARDLESS_LIVE,
      apiUrl: config.GOCARDLESS_API_URL,
      timeoutMs,
    }),
    createTrueLayerAdapter({ ...trueLayerHostsOf(config), timeoutMs }),
  ];
}
