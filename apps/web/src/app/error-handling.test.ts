import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/http';
import { createErrorHandling } from './error-handling';

function setup() {
  const deps = { navigate: vi.fn(), signIn: vi.fn(), notifyError: vi.fn() };
  return { deps, handling: createErrorHandling(deps), queryClient: new QueryClient() };
}

function queryWith(
  queryClient: QueryClient,
  data?: unknown,
  meta?: { statusRouting?: boolean; inlineErrors?: boolean },
) {
  const key = ['q', Math.random()];
  if (data !== undefined) queryClient.setQueryData(key, data);
  return queryClient.getQueryCache().build(queryClient, { queryKey: key, meta });
}

describe('global error handling', () => {
  it('routes a failed page load to its error page', () => {
    const { deps, handling, queryClient } = setup();
    handling.onQueryError(new ApiError(503, null, 'Down'), queryWith(queryClient));
    expect(deps.navigate).toHaveBeenCalledWith('/error/503', 'Down');
  });

  it('starts the login flow on 401', () => {
    const { deps, handling, queryClient } = setup();
    handling.onQueryError(new ApiError(401, null), queryWith(queryClient));
    handling.onMutationError(new ApiError(401, null));
    expect(deps.signIn).toHaveBeenCalledTimes(2);
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('shows a forbidden toast and the 403 page', () => {
    const { deps, handling, queryClient } = setup();
    handling.onQueryError(new ApiError(403, null), queryWith(queryClient));
    expect(deps.notifyError).toHaveBeenCalledOnce();
    // spec 1 §2.5 / spec 3 §8: the forbidden text is 'Forbidden request'.
    expect(deps.notifyError).toHaveBeenCalledWith('Forbidden request');
    expect(deps.navigate).toHaveBeenCalledWith('/error/403', expect.anything());
  });

  it('only toasts when a query that has data fails to refresh', () => {
    const { deps, handling, queryClient } = setup();
    handling.onQueryError(new ApiError(404, null), queryWith(queryClient, { items: [] }));
    expect(deps.notifyError).toHaveBeenCalledWith('Item could not be found');
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('leaves queries that opt out alone', () => {
    const { deps, handling, queryClient } = setup();
    handling.onQueryError(
      new ApiError(500, null),
      queryWith(queryClient, undefined, { statusRouting: false }),
    );
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(deps.notifyError).not.toHaveBeenCalled();
  });

  it('lets a detail page show its own failure but still signs in on 401', () => {
    const { deps, handling, queryClient } = setup();
    handling.onQueryError(
      new ApiError(404, null),
      queryWith(queryClient, undefined, { inlineErrors: true }),
    );
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(deps.notifyError).not.toHaveBeenCalled();
    handling.onQueryError(
      new ApiError(401, null),
      queryWith(queryClient, undefined, { inlineErrors: true }),
    );
    expect(deps.signIn).toHaveBeenCalledOnce();
  });

  it('shows the forbidden toast, not the detail, when a query that has data is refused a refresh', () => {
    const { deps, handling, queryClient } = setup();
    const refused = new ApiError(403, {
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: 'This needs the ViewAuditLogs permission.',
    });
    handling.onQueryError(refused, queryWith(queryClient, { items: [] }));
    expect(deps.notifyError).toHaveBeenCalledWith('Forbidden request');
    expect(deps.navigate).not.toHaveBeenCalled();
  });
});
