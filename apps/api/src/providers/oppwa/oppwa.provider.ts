import { providerModule } from '../provider-module.js';
import type { Config } from '../../config.js';
import { createOppwaAdapter } from './oppwa.adapter.js';
import { createOppwaCheckout } from './oppwa.checkout.js';
import { createOppwaAdmin } from './oppwa.admin.js';

const hostsOf = (config: Config) => ({
  testUrl: config.OPPWA_TEST_URL,
  liveUrl: config.OPPWA_LIVE_URL,
  timeoutMs: config.PROVIDER_TIMEOUT_MS,
});

/** Oppwa: its hosted payment form on the payer page, its admin API for the connection test. */
export const oppwaProvider = providerModule({
  name: 'Oppwa',
  checkout: (config) => createOppwaCheckout(hostsOf(config)),
  adapter: (config) => createOppwaAdapter(hostsOf(config)),
  connection: (config) => createOppwaAdmin(hostsOf(config)),
});
