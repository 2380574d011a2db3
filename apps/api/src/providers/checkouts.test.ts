import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createCheckoutRegistry } from './checkout.js';
import { createCheckoutAdapters } from './registry.js';

describe('createCheckoutAdapters', () => {
  it('lists a checkout for each real provider it can pay through, found by the configuration kind', () => {
    const adapters = createCheckoutAdapters(loadConfig({ NODE_ENV: 'test' }));
    expect(adapters.map((adapter) => adapter.name)).toEqual(
      expect.arrayContaining(['Stripe', 'GoCardless', 'TrueLayer', 'Oppwa']),
    );
    const registry = createCheckoutRegistry(adapters);
    // The kinds as configurations name them (paymentProviderNames).
    for (const kind of ['Stripe', 'GoCardless', 'TrueLayer', 'Oppwa'])
      expect(registry.forProvider(kind)?.name).toBe(kind);
    // Signed notifications where the provider sends them; OPPWA's are encrypted and bring its
    // refunds and chargebacks, while its payments' outcome still comes from status().
    for (const kind of ['Stripe', 'GoCardless', 'TrueLayer', 'Oppwa'])
      expect(registry.forProvider(kind)?.verifyNotification).toBeTypeOf('function');
  });
});
