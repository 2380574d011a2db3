import type { PaymentProviderName } from '@ledgerline/contract';
import type { Config } from '../config.js';
import type { PaymentProviderAdapter } from './adapter.js';
import type { CheckoutAdapter } from './checkout.js';
import { goCardlessProvider } from './gocardless/gocardless.provider.js';
import { opayoProvider } from './opayo/opayo.provider.js';
import { oppwaProvider } from './oppwa/oppwa.provider.js';
import type { PaymentProviderModule } from './provider-module.js';
import { sandboxProvider } from './sandbox/sandbox.provider.js';
import { stripeProvider } from './stripe/stripe.provider.js';
import { tranSafeProvider } from './transafe/transafe.provider.js';
import { trueLayerProvider } from './truelayer/truelayer.provider.js';

/**
 * The one list of the payment providers the server talks to, each declared in its own folder
 * (provider-module.ts). The payer page's checkouts, the capture and refund adapters and the
 * connection clients are all made by iterating it.
 */
export const paymentProviderModules = {
  Sandbox: sandboxProvider,
  TranSafe: tranSafeProvider,
  Opayo: opayoProvider,
  TrueLayer: trueLayerProvider,
  Oppwa: oppwaProvider,
  Stripe: stripeProvider,
  GoCardless: goCardlessProvider,
} satisfies Record<PaymentProviderName, PaymentProviderModule>;

type Modules = typeof paymentProviderModules;
const modules = (): PaymentProviderModule[] => Object.values(paymentProviderModules);

/** The adapters the payer page pays through, one per provider. */
export function createCheckoutAdapters(config: Config): CheckoutAdapter[] {
  return modules().map((module) => module.checkout(config));
}

/**
 * The adapters that capture and cancel pending payments (reserve-then-capture) and refund paid
 * ones, one per provider. GoCardless and TrueLayer payments are never held for capture (their
 * adapters refund only); Opayo's are through Pi.
 */
export function createPaymentAdapters(config: Config): PaymentProviderAdapter[] {
  return modules().map((module) => module.adapter(config));
}

/** The connection flows' and tests' clients, by provider name (the Sandbox has none). */
export type ProviderClients = {
  [K in keyof Modules as Modules[K]['connection'] extends null ? never : K]: ReturnType<
    NonNullable<Modules[K]['connection']>
  >;
};

/** The providers' connection clients, their base URLs and timeouts from configuration. */
export function createProviderClients(config: Config): ProviderClients {
  const clients: Record<string, unknown> = {};
  for (const module of modules())
    if (module.connection) clients[module.name] = module.connection(config);
  return clients as ProviderClients;
}
