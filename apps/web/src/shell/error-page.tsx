import { Button } from '@mantine/core';
import { IconHome, IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useLocation, useParams, useRouteError } from 'react-router';
import { signOutNow } from '@/auth/sign-in';
import { reportRenderError } from '@/lib/client-reports';
import { ApiError } from '@/lib/http';
import { usePageTitle } from '@/ui/page-title';
import { crossTenantCode, ErrorContent } from './error-content';

function GoHome() {
  return (
    <Button component={Link} to="/" variant="light" leftSection={<IconHome size={16} />}>
      Go home
    </Button>
  );
}

/** Detail handed over by the status routing (app/error-handling.ts) in the location state. */
function detailFromState(state: unknown): string | undefined {
  if (typeof state === 'object' && state !== null && 'detail' in state) {
    const { detail } = state as { detail: unknown };
    return typeof detail === 'string' ? detail : undefined;
  }
  return undefined;
}

/** spec 1 §2.5: /error/{code}. */
export function ErrorPage() {
  const { code = 'unknown' } = useParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  usePageTitle(['Error']);

  // spec 1 §2.5: no go-home link on the cross-tenant page; its message asks to sign out.
  const action =
    code === crossTenantCode ? (
      <Button
        variant="light"
        leftSection={<IconLogout size={16} />}
        onClick={() => void signOutNow(queryClient)}
      >
        Sign out
      </Button>
    ) : (
      <GoHome />
    );
  return <ErrorContent code={code} detail={detailFromState(location.state)} action={action} />;
}

/** A screen that failed while rendering: the generic error with its message. */
export function RouteErrorElement() {
  const error = useRouteError();
  usePageTitle(['Error']);
  // spec 1 §8: a screen that crashed is reported; a refused call the server already knows of.
  const crashed = !isRouteErrorResponse(error) && !(error instanceof ApiError);
  useEffect(() => {
    if (crashed) reportRenderError(error);
  }, [crashed, error]);
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorContent code="404" action={<GoHome />} />;
  }
  const detail = error instanceof Error ? error.message : undefined;
  return <ErrorContent code="unknown" detail={detail} action={<GoHome />} />;
}
