import type { SignInConfig } from '@ledgerline/contract';
import { Alert, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconLogin } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { SignInError } from '@/auth/api/exchange-code';
import { useSignInConfig } from '@/auth/api/get-sign-in-config';
import { readSignInCallback, withoutCallbackParams } from '@/auth/callback';
import { clearSignInData, completeSignInOnce, redirectUri, startSignIn } from '@/auth/sign-in';
import { isEmbedded, isSessionActive } from '@/lib/session';
import { errorMessage } from '@/lib/status-routing';
import { usePageTitle } from '@/ui/page-title';
import { LoadingScreen } from './loading-screen';

type Failure = { status: 'failed'; message: string; detail: string | null };
type GateState = { status: 'checking' } | { status: 'ready' } | Failure;

function failure(error: unknown): Failure {
  return {
    status: 'failed',
    message: errorMessage(error),
    detail: error instanceof SignInError ? error.detail : null,
  };
}

/**
 * spec 1 §4: the screens behind it need a session. It completes a sign-in callback, sends a user
 * without a session (or with an expired one) to the identity provider, and lets an embedded view
 * through (isSessionActive counts it as signed in).
 */
export function AuthGate() {
  const navigate = useNavigate();
  const location = useLocation();
  const config = useSignInConfig();
  const [state, setState] = useState<GateState>(() =>
    isSessionActive() ? { status: 'ready' } : { status: 'checking' },
  );

  useEffect(() => {
    if (state.status !== 'checking' || !config.data) return;
    const signInConfig: SignInConfig = config.data;
    const callback = readSignInCallback(window.location.href, redirectUri(signInConfig));
    if (!callback) {
      startSignIn(signInConfig).catch((error: unknown) => setState(failure(error)));
      return;
    }
    let current = true;
    completeSignInOnce(signInConfig, callback).then(
      async (returnTo) => {
        await navigate(returnTo, { replace: true });
        if (current) setState({ status: 'ready' });
      },
      async (error: unknown) => {
        clearSignInData();
        await navigate(withoutCallbackParams(window.location.href), { replace: true });
        if (current) setState(failure(error));
      },
    );
    return () => {
      current = false;
    };
  }, [state.status, config.data, navigate]);

  // Router updates are transitions: until the restored address is committed, the router still
  // shows the callback address, which no screen must see (it would be "not found").
  const onCallbackAddress =
    config.data !== undefined &&
    location.pathname === config.data.redirectPath &&
    new URLSearchParams(location.search).has('code');
  // An embedded view counts as signed in (spec 1 §1), but a sign-in it had to start inside the
  // frame (after a 401) still comes back to the callback address, which must be completed.
  // Once only: after a completed callback the router shows the callback address a moment longer.
  const callbackWhileReady = state.status === 'ready' && onCallbackAddress && isEmbedded();
  const embeddedCallbackSeen = useRef(false);
  useEffect(() => {
    if (!callbackWhileReady || embeddedCallbackSeen.current) return;
    embeddedCallbackSeen.current = true;
    setState({ status: 'checking' });
  }, [callbackWhileReady]);
  // Until the sign-in configuration says where the callback is, an embedded view on an address
  // with a code and a state may be one: the screens (and their 401s) wait.
  const query = new URLSearchParams(location.search);
  const maybeCallback =
    isEmbedded() && config.data === undefined && query.has('code') && query.has('state');
  if (state.status === 'ready' && !onCallbackAddress && !maybeCallback) return <Outlet />;
  if (state.status === 'failed' || (config.isError && !config.isFetching)) {
    const shown = state.status === 'failed' ? state : failure(config.error);
    return (
      <SignInFailed
        message={shown.message}
        detail={shown.detail}
        onRetry={() => {
          setState({ status: 'checking' });
          if (config.isError) void config.refetch();
        }}
      />
    );
  }
  return <LoadingScreen />;
}

interface SignInFailedProps {
  message: string;
  detail: string | null;
  onRetry: () => void;
}

function SignInFailed({ message, detail, onRetry }: SignInFailedProps) {
  usePageTitle(['Sign in']);
  return (
    <Center h="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" maw={480} w="100%">
        <Stack gap="md">
          <Title order={1} size="h2">
            Sign-in failed
          </Title>
          <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
            <Text size="sm">{message}</Text>
            {detail && (
              <Text size="sm" c="dimmed" mt={4}>
                {detail}
              </Text>
            )}
          </Alert>
          <Button leftSection={<IconLogin size={16} />} onClick={onRetry}>
            Sign in again
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
