import { accountSchema, newRequestDefaults } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/** Only what the New Request dialog shows of an account; the rest of the page is ignored. */
const dialogAccounts = z.object({
  items: z.array(accountSchema.pick({ id: true, accountReference: true, name: true, currency: true })),
});
export type DialogAccount = z.infer<typeof dialogAccounts>['items'][number];

/** spec 2 §2, §9: the New Request dialog loads the first 20 accounts (GET accounts, default order). */
export function getDialogAccounts(signal?: AbortSignal) {
  return companyClient.get('/accounts', {
    query: { page: 1, itemsPerPage: newRequestDefaults.accountsLoaded },
    schema: dialogAccounts,
    signal,
  });
}

export const dialogAccountsQueryOptions = () =>
  queryOptions({
    queryKey: companyQueryKeys('accounts').list({ page: 1, itemsPerPage: newRequestDefaults.accountsLoaded }),
    queryFn: ({ signal }) => getDialogAccounts(signal),
  });

export function useDialogAccounts(enabled: boolean) {
  return useQuery({ ...dialogAccountsQueryOptions(), enabled });
}
