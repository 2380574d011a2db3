import { companyQueryKeys, tenantQueryKeys } from '@/lib/query-keys';

/** Keys of the current company's provider configurations (they lead with the company id). */
export const paymentProviderKeys = () => {
  const keys = companyQueryKeys('payment-providers');
  return {
    ...keys,
    types: () => tenantQueryKeys('payment-provider-types').all(),
    default: () => [...keys.all(), 'default'] as const,
  };
};
