import { companyQueryKeys } from '@/lib/query-keys';

/** Keys of the banks of the current company: they lead with its id, so companies never share. */
export const bankKeys = () => companyQueryKeys('banks');
