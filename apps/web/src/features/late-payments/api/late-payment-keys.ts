import { companyQueryKeys } from '@/lib/query-keys';

export const latePaymentKeys = () => companyQueryKeys('late-payments');
