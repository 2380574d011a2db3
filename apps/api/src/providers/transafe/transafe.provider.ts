import { providerModule } from '../provider-module.js';
import type { Config } from '../../config.js';
import { createTranSafeAdapter } from './transafe.adapter.js';
import { createTranSafeCheckout } from './transafe.checkout.js';
import { createTranSafeAdmin } from './transafe.admin.js';

const hostsOf = (config: Config) => ({
  testUrl: config.TRANSAFE_TEST_URL,
  liveUrl: config.TRANSAFE_LIVE_URL,
  timeoutMs: config.PROVIDER_TIMEOUT_MS,
});

/** TranSafe: its hosted payment form on the payer page, its admin API for the connection test. */
export const tranSafeProvider = providerModule({
  name: 'TranSafe',
  checkout: (config) => createTranSafeCheckout(hostsOf(config)),
  adapter: (config) => createTranSafeAdapter(hostsOf(config)),
  connection: (config) => createTranSafeAdmin(hostsOf(config)),
});
