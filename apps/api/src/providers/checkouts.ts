import type { Config } from '../config.js';
import type { CheckoutAdapter } from './checkout.js';
import { createGoCardlessCheckout } from './gocardless/gocardless.checkout.js';
import { createOppwaCheckout } from './oppwa/oppwa.checkout.js';
import { createOpayoCheckout } from './opayo/opayo.checkout.js';
import { createStripeCheckout } from './stripe/stripe.checkout.js';
import { createTrueLayerCheckout, trueLayerHostsOf } from './truelayer/truelayer.checkout.js';
import { createTranSafeCheckout } from './transafe/transafe.checkout.js';
import { createSandboxCheckout } from './sandbox/sandbox.checkout.js';

/**
 * The adapters the payer page pays through (issue 14), by provider name: Ledgerline's Sandbox and
 * each real provider's checkout (Stripe Checkout, GoCardless billing request flow, TrueLayer,
 * OPPWA COPYandPAY, TranSafe and Opayo hosted forms).
 */
export function createCheckoutAdapters(config: Config): CheckoutAdapter[] {
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  return [
    createSandboxCheckout({ notificationKey: config.SANDBOX_NOTIFICATION_KEY }),
    createStripeCheckout({
      apiUrl: config.STRIPE_API_URL,
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      timeoutMs,
    }),
    createGoCardlessCheckout({
      live: config.GOCARDLESS_LIVE,
      apiUrl: config.GOCARDLESS_API_URL,
      webhookSecret: config.GOCARDLESS_WEBHOOK_SECRET,
      timeoutMs,
    }),
    createTrueLayerCheckout({ ...trueLayerHostsOf(config), timeoutMs }),
    createOppwaCheckout({
      testUrl: config.OPPWA_TEST_URL,
      liveUrl: config.OPPWA_LIVE_URL,
      timeoutMs,
    }),
    createOpayoCheckout({
      testUrl: config.OPAYO_TEST_URL,
      liveUrl: config.OPAYO_LIVE_URL,
      timeoutMs,
    }),
    createTranSafeCheckout({
      testUrl: config.TRANSAFE_TEST_URL,
      liveUrl: config.TRANSAFE_LIVE_URL,
      timeoutMs,
    }),
  ];
}
