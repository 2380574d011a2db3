import { companyQueryKeys } from '@/lib/query-keys';

/** Keys of the web hooks of the current company. */
export const webHookKeys = () => companyQueryKeys('web-hooks');
