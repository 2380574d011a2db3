import type { PaymentProviderModule } from '../provider-module.js';
import { createSandboxAdapter } from './sandbox.adapter.js';
import { createSandboxCheckout } from './sandbox.checkout.js';

/** Ledgerline's own test provider: no money moves, nothing to connect. */
export const sandboxProvider = {
  name: 'Sandbox' as const,
  checkout: (config) => createSandboxCheckout({ notificationKey: config.SANDBOX_NOTIFICATION_KEY }),
  adapter: () => createSandboxAdapter(),
  connection: null,
} satisfies PaymentProviderModule;
