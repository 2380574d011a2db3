import {
  providerConnectionMessages as messages,
  type GoCardlessCompleteResult,
} from '@ledgerline/contract';
import { Alert, Anchor, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '@/lib/status-routing';
import { LoadingState } from '@/ui/loading-state';
import { connectStripeAccount } from '../api/connect-stripe-account';
import { completeGoCardlessAuthorisation } from '../api/gocardless-authorisation';
import { providersPath } from './provider-form';

function Failed({ message }: { message: string }) {
  return (
    <Stack gap="md" maw={640}>
      <Alert color="red" icon={<IconAlertTriangle size={18} />}>
        {message}
      </Alert>
      <Anchor component={Link} to={providersPath}>
        Back to the payment providers
      </Anchor>
    </Stack>
  );
}

/**
 * Runs a return route's one call once (a remount must not spend the code twice) and reports:
 * `null` while it runs, then the failure text or nothing.
 */
function useReturn(run: () => Promise<string | null>): string | null | undefined {
  const [failure, setFailure] = useState<string | null | undefined>(undefined);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run().then(setFailure, (error: unknown) => setFailure(errorMessage(error)));
  }, [run]);
  return failure;
}

/**
 * spec 3 §2, §4 `/stripe-connect/connect/oauth`: code, state, error, error_description. The server
 * checks the state it issued to this session (missing, foreign, spent or expired: its message).
 */
export function StripeConnectReturnPage() {
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const run = useRef(async (): Promise<string | null> => {
    const error = query.get('error');
    if (error) return query.get('error_description') ?? messages.unknownError;
    const result = await connectStripeAccount({
      code: query.get('code') ?? '',
      state: query.get('state') ?? '',
    });
    notifications.show({ color: 'green', message: messages.stripeConnected });
    void navigate(`${providersPath}/${result.paymentProviderId}`, { replace: true });
    return null;
  }).current;
  const failure = useReturn(async () => {
    const outcome = await run().catch((error: unknown) => errorMessage(error));
    if (outcome) notifications.show({ color: 'red', message: messages.stripeConnectFailed });
    return outcome;
  });
  if (failure) return <Failed message={failure} />;
  return <LoadingState label="Connecting to Stripe" />;
}

/** spec 3 §4 `/gocardless/connect/oauth`: completing, then success or failed (state as above). */
export function GoCardlessReturnPage() {
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const run = useRef(async (): Promise<string | null> => {
    const error = query.get('error');
    if (error) return query.get('error_description') ?? messages.unknownError;
    const result: GoCardlessCompleteResult = await completeGoCardlessAuthorisation({
      code: query.get('code') ?? '',
      state: query.get('state') ?? '',
    });
    if (!result.success || !result.paymentProviderId)
      return result.errorMessage ?? messages.unknownError;
    notifications.show({ color: 'green', message: messages.goCardlessAuthorised });
    void navigate(`${providersPath}/${result.paymentProviderId}`, { replace: true });
    return null;
  }).current;
  const failure = useReturn(async () => {
    const outcome = await run().catch((error: unknown) => errorMessage(error));
    if (outcome) notifications.show({ color: 'red', message: messages.goCardlessFailed });
    return outcome;
  });
  if (failure) return <Failed message={failure} />;
  return <LoadingState label="Completing the GoCardless authorisation" />;
}
