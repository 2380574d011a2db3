import type { FeatureFlags, UserMe } from '@ledgerline/contract';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
// 'react-router' and not 'react-router/dom' (the app's): under Vitest the two entry points load
// different builds, whose router contexts do not meet.
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { cssVariablesResolver, theme } from '@/app/theme';
import { FeatureFlagsProvider } from '@/lib/feature-flags';
import { queryKeys } from '@/lib/query-keys';
import { storeSession } from '@/lib/session';
import type { AreaRoute } from '@/shell/area-route';
import { AreaRoutesProvider } from '@/shell/area-routes-context';

interface RenderOptions {
  /** The address the memory router starts at. */
  path?: string;
  /** Extra routes beside the one that renders `ui` (which matches every path). */
  routes?: RouteObject[];
  flags?: FeatureFlags;
  /** Seeds users/me in the cache (no fetch needed). */
  user?: UserMe;
  areaRoutes?: readonly AreaRoute[];
  queryClient?: QueryClient;
  /** Start a session first (default true). */
  signedIn?: boolean;
}

export function createTestQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

/** Renders with the site's providers, a signed-in session and a memory router. */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  const queryClient = options.queryClient ?? createTestQueryClient();
  if (options.user) queryClient.setQueryData(queryKeys.users.me(), options.user);
  if (options.signedIn !== false) storeSession(3600, null);
  const router = createMemoryRouter([...(options.routes ?? []), { path: '*', element: ui }], {
    initialEntries: [options.path ?? '/'],
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
        <Notifications />
        <ModalsProvider>
          <FeatureFlagsProvider flags={options.flags ?? {}}>
            <AreaRoutesProvider routes={options.areaRoutes ?? []}>
              <RouterProvider router={router} />
            </AreaRoutesProvider>
          </FeatureFlagsProvider>
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router };
}
