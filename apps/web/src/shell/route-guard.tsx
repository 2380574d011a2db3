import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useCurrentUser } from '@/auth/api/get-me';
import { isFlagOn, useFeatureFlags } from '@/lib/feature-flags';
import { checkPermission } from '@/lib/permissions';
import { useRouteTitle } from '@/ui/page-title';
import type { AreaRoute } from './area-route';
import { LoadingScreen } from './loading-screen';
import { useCompanyCheck } from './use-company-check';

/**
 * spec 1 §2.3: a registered screen waits for the user's profile (and the company check of §4)
 * and needs its permission, otherwise /error/403. The session itself is the AuthGate's.
 */
export function RouteGuard({ route, children }: { route: AreaRoute; children: ReactNode }) {
  useRouteTitle(route.title);
  const flags = useFeatureFlags();
  const { data: user } = useCurrentUser();
  const company = useCompanyCheck();

  if (route.featureFlag && !isFlagOn(flags, route.featureFlag)) {
    return <Navigate to="/error/404" replace />;
  }
  // A failed profile or company call has already been routed to its error page.
  if (!user || !company.ready) return <LoadingScreen inline />;
  if (!checkPermission(route.permission, user.permissions, flags)) {
    return <Navigate to="/error/403" replace />;
  }
  return children;
}
