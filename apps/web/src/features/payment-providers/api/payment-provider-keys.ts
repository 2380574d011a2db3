import { companyQueryKeys } from '@/lib/query-keys';

/** Keys of the current company's provider configurations (they lead with the company id). */
export const paymentProviderKeys = () => {
  const keys = companyQueryKeys('payment-providers');
  return {
    ...keys,
    types: () => ['payment-provider-types'] as const,
    default: () => [...keys.all(), 'default'] as const,
  };
};
