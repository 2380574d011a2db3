import type { FeatureFlagName, FeatureFlags } from '@ledgerline/contract';
import { createContext, useContext, type ReactNode } from 'react';

const FeatureFlagsContext = createContext<FeatureFlags>({});

/** Provided once the flags have loaded (app/feature-flags-gate.tsx). */
export function FeatureFlagsProvider({
  flags,
  children,
}: {
  flags: FeatureFlags;
  children: ReactNode;
}) {
  return <FeatureFlagsContext.Provider value={flags}>{children}</FeatureFlagsContext.Provider>;
}

export function useFeatureFlags(): FeatureFlags {
  return useContext(FeatureFlagsContext);
}

/** A flag the server did not send is off. */
export function isFlagOn(flags: FeatureFlags, name: FeatureFlagName): boolean {
  return flags[name] === true;
}
