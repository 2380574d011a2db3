import { companyQueryKeys } from '@/lib/query-keys';

/** Keys of the accounting transactions of the current company (they lead with its id). */
export const transactionKeys = () => companyQueryKeys('transactions');
