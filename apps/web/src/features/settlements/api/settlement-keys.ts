import { companyQueryKeys } from '@/lib/query-keys';

export const settlementKeys = () => companyQueryKeys('settlements');
