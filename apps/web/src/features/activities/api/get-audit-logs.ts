import { activityPageSize, auditLogsPageSchema, type AuditLogsPage } from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient, tenantClient } from '@/lib/http';
import { companyQueryKeys, tenantQueryKeys } from '@/lib/query-keys';

/** spec 3 §2: the current company's activities, or the tenant's own. */
export type ActivityScope = 'company' | 'tenant';

const scopeKeys = {
  company: () => companyQueryKeys('activities'),
  tenant: () => tenantQueryKeys('activities'),
};

/**
 * spec 3 §9 GET audit-logs, 15 a page, newest first, cursor paged; the first page has the count. The company scope sends the
 * Dataset-Id header (company client); the tenant scope does not (tenant client).
 */
export function getAuditLogs(
  scope: ActivityScope,
  cursor: string | undefined,
  signal?: AbortSignal,
  search = '',
): Promise<AuditLogsPage> {
  const client = scope === 'company' ? companyClient : tenantClient;
  return client.get('/audit-logs', {
    query: { itemsPerPage: activityPageSize, cursor, ...(search ? { search } : {}) },
    schema: auditLogsPageSchema,
    signal,
  });
}

export const auditLogsQueryOptions = (
  scope: ActivityScope,
  cursor: string | undefined,
  search = '',
) =>
  queryOptions({
    queryKey: scopeKeys[scope]().list({ cursor: cursor ?? null, ...(search ? { search } : {}) }),
    queryFn: ({ signal }) => getAuditLogs(scope, cursor, signal, search),
    placeholderData: keepPreviousData,
  });

/** With `search`: the activities the search box finds. */
export function useAuditLogs(scope: ActivityScope, cursor: string | undefined, search = '') {
  return useQuery(auditLogsQueryOptions(scope, cursor, search));
}
