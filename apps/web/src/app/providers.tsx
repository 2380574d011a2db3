import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { installFocusReturn } from '@/ui/focus-return';
import { DeferredModals, DeferredNotifications } from './deferred-overlays';
import { cssVariablesResolver, theme } from './theme';

/**
 * Query client outermost so that dialogs opened through `modals` can use queries. Modals render
 * outside the router: their content must not rely on router hooks. Toasts and dialogs load with
 * their first use (deferred-overlays.tsx).
 */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  // A dialog that closes gives the focus back to what opened it (ui/focus-return.ts).
  useEffect(() => installFocusReturn(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
      >
        {/* Toasts do not pile up: three at most, the rest wait their turn. */}
        <DeferredNotifications />
        <DeferredModals />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
