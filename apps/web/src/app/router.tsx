import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import type { AreaRoute, AreaRouteHandle } from '@/shell/area-route';
import { AuthGate } from '@/shell/auth-gate';
import { ErrorPage, RouteErrorElement } from '@/shell/error-page';
import { RouteGuard } from '@/shell/route-guard';
import { LoadingScreen } from '@/shell/loading-screen';
import { ShellLayout } from '@/shell/shell-layout';
import { FeatureFlagsGate } from './feature-flags-gate';
import { HealthRoute } from './routes/health';

/**
 * /health is public and asks the API nothing (spec 1 §2.1: it shows Healthy, so it must while the
 * API is down too). Everything else waits for the feature flags (spec 1 §4), needs a session
 * (AuthGate, which also completes the sign-in callback) and sits in the shell. Registered screens
 * are guarded; error pages are not, so that they show even when the profile cannot load.
 */
export function buildRoutes(
  areaRoutes: readonly AreaRoute[],
  /** Rendered beside every screen but /health (which asks the API nothing): the reports switch. */
  beside: ReactNode = null,
): RouteObject[] {
  return [
    { path: '/health', element: <HealthRoute /> },
    {
      element: (
        <FeatureFlagsGate>
          {beside}
          <Outlet />
        </FeatureFlagsGate>
      ),
      children: [
        {
          element: <AuthGate />,
          // Shown while the first screen's chunk loads.
          hydrateFallbackElement: <LoadingScreen />,
          children: [
            {
              element: <ShellLayout routes={areaRoutes} />,
              errorElement: <RouteErrorElement />,
              children: [
                ...areaRoutes.map((route): RouteObject => ({
                  path: route.path,
                  handle: { fullWidth: route.fullWidth } satisfies AreaRouteHandle,
                  // The page's chunk loads when the route is first matched (React Router lazy).
                  lazy: async () => {
                    const Page = await route.page();
                    return {
                      element: (
                        <RouteGuard route={route}>
                          <Page />
                        </RouteGuard>
                      ),
                    };
                  },
                  errorElement: <RouteErrorElement />,
                })),
                { path: '/error/:code', element: <ErrorPage /> },
                // spec 1 §2.1: any other path redirects to the not-found error page.
                { path: '*', element: <Navigate to="/error/404" replace /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(areaRoutes: readonly AreaRoute[], beside: ReactNode = null) {
  return createBrowserRouter(buildRoutes(areaRoutes, beside));
}
