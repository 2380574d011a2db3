import { Alert, Anchor, Stack } from '@mantine/core';
import { navigateAway } from '@/lib/parent-redirect';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '@/lib/status-routing';
import { LoadingState } from '@/ui/loading-state';
import { startGoCardlessAuthorisation } from '../api/gocardless-authorisation';
import { providersPath } from './provider-form';

/** spec 3 §4: the GoCardless add page goes straight to GoCardless's authorisation. */
export function GoCardlessRedirect() {
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    startGoCardlessAuthorisation().then(
      ({ url }) => navigateAway(url),
      (error: unknown) => setFailure(errorMessage(error)),
    );
  }, []);
  if (failure) {
    return (
      <Stack gap="md" maw={640}>
        <Alert color="red">{failure}</Alert>
        <Anchor component={Link} to={providersPath}>
          Back to the payment providers
        </Anchor>
      </Stack>
    );
  }
  return <LoadingState label="Redirecting to GoCardless" />;
}
