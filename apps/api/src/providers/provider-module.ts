import type { PaymentProviderName } from '@ledgerline/contract';
import type { Config } from '../config.js';
import type { PaymentProviderAdapter } from './adapter.js';
import type { CheckoutAdapter } from './checkout.js';

/**
 * One payment provider as the server knows it, declared once in its own folder
 * (`<provider>/<provider>.provider.ts`): its name, how the payer page pays through it, how its
 * payments are captured, cancelled and refunded, and the client its connection flow or
 * connection test calls (none for the Sandbox). Its settings and credentials are the contract's
 * `providerKindSchemas[name]`, which the site's forms share. providers/registry.ts lists them;
 * everything else iterates that list.
 */
export interface PaymentProviderModule<Connection = unknown> {
  name: PaymentProviderName;
  checkout(config: Config): CheckoutAdapter;
  adapter(config: Config): PaymentProviderAdapter;
  connection: ((config: Config) => Connection) | null;
}

/** Declares a provider module with its connection client's own type kept. */
export const providerModule = <Connection>(
  module: PaymentProviderModule<Connection>,
): PaymentProviderModule<Connection> => module;
