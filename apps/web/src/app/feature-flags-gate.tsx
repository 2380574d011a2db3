import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useFeatureFlagsQuery } from '@/lib/api/get-feature-flags';
import { FeatureFlagsProvider } from '@/lib/feature-flags';
import { errorMessage } from '@/lib/status-routing';
import { ErrorContent } from '@/shell/error-content';
import { LoadingScreen } from '@/shell/loading-screen';

/** spec 1 §4: the admin portal's feature flags are loaded before the application renders. */
export function FeatureFlagsGate({ children }: { children: ReactNode }) {
  const flags = useFeatureFlagsQuery();
  if (flags.isPending || (flags.isError && flags.isFetching)) return <LoadingScreen />;
  if (flags.isError) {
    return (
      <ErrorContent
        code="unknown"
        detail={errorMessage(flags.error)}
        action={
          <Button leftSection={<IconRefresh size={16} />} onClick={() => void flags.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  return <FeatureFlagsProvider flags={flags.data}>{children}</FeatureFlagsProvider>;
}
