import { providerModule } from '../provider-module.js';
import type { Config } from '../../config.js';
import { createOpayoAdapter } from './opayo.adapter.js';
import { createOpayoCheckout } from './opayo.checkout.js';
import { createOpayoAdmin } from './opayo.admin.js';

const hostsOf = (config: Config) => ({
  testUrl: config.OPAYO_TEST_URL,
  liveUrl: config.OPAYO_LIVE_URL,
  timeoutMs: config.PROVIDER_TIMEOUT_MS,
});

/** Opayo: its hosted payment form on the payer page, its admin API for the connection test. */
export const opayoProvider = providerModule({
  name: 'Opayo',
  checkout: (config) => createOpayoCheckout(hostsOf(config)),
  adapter: (config) => createOpayoAdapter(hostsOf(config)),
  connection: (config) => createOpayoAdmin(hostsOf(config)),
});
