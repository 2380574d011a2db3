import { companyQueryKeys } from '@/lib/query-keys';

/** Keys of the accounts of the current company: they lead with its id, so companies never share. */
export const accountKeys = () => companyQueryKeys('accounts');

/** The payers of one account, under the account's keys so an account change can reach them. */
export const payerKeys = (accountId: string) => ({
  all: () => [...accountKeys().detail(accountId), 'payers'] as const,
  list: (params: Record<string, unknown>) =>
    [...accountKeys().detail(accountId), 'payers', 'list', params] as const,
  detail: (id: string) => [...accountKeys().detail(accountId), 'payers', 'detail', id] as const,
});

/** The payers of every account of the company (the /payers list). */
export const companyPayerKeys = () => ({
  list: (params: Record<string, unknown>) => [...accountKeys().all(), 'payers', params] as const,
});

/** Payment transactions read from an account or payer page (spec 2 §7: filter accountId / payerId eq). */
export const relatedPaymentTransactionKeys = () => companyQueryKeys('payment-transactions');
