import { accountSchema, formatFilter, newRequestDefaults } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/** Only what the New Request dialog shows of an account; the rest of the page is ignored. */
const dialogAccounts = z.object({
  items: z.array(
    accountSchema.pick({ id: true, accountReference: true, name: true, currency: true }),
  ),
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
    queryKey: companyQueryKeys('accounts').list({
      page: 1,
      itemsPerPage: newRequestDefaults.accountsLoaded,
    }),
    queryFn: ({ signal }) => getDialogAccounts(signal),
  });

export function useDialogAccounts(enabled: boolean) {
  return useQuery({ ...dialogAccountsQueryOptions(), enabled });
}

/**
 * The accounts whose reference or name contains `search` (the picker searches
 * the server as the user types). Filters are ANDed (spec 2 §7), so the two fields are two calls;
 * the answer is their union by reference, at most as many as the initial list.
 */
export async function searchDialogAccounts(search: string, signal?: AbortSignal) {
  const byField = (field: 'accountReference' | 'name') =>
    companyClient.get('/accounts', {
      query: {
        page: 1,
        itemsPerPage: newRequestDefaults.accountsLoaded,
        filter: formatFilter([{ field, operator: 'ct', value: search }]),
      },
      schema: dialogAccounts,
      signal,
    });
  const [byReference, byName] = await Promise.all([byField('accountReference'), byField('name')]);
  const found = new Map<string, DialogAccount>();
  for (const account of [...byReference.items, ...byName.items]) found.set(account.id, account);
  return [...found.values()]
    .sort((a, b) => a.accountReference.localeCompare(b.accountReference))
    .slice(0, newRequestDefaults.accountsLoaded);
}

export function useDialogAccountSearch(search: string) {
  return useQuery({
    queryKey: companyQueryKeys('accounts').list({ dialogSearch: search }),
    queryFn: ({ signal }) => searchDialogAccounts(search, signal),
    enabled: search !== '',
    placeholderData: keepPreviousData,
  });
}
