import type { FeatureFlagName } from '@ledgerline/contract';
import type { ComponentType } from 'react';
import type { PermissionRule } from '@/lib/permissions';

/**
 * One screen of an area, as registered in app/routes.tsx. The side menu shows the entry of
 * shell/menu.ts whose path is registered, so a menu entry never leads to a missing page.
 */
export interface AreaRoute {
  /** Absolute path in React Router syntax: '/payment-transactions/:id'. */
  path: string;
  /** Page title subtitles: 'Ledgerline | Payment Transactions | 123'. */
  title: readonly string[];
  /**
   * Loads the screen's code (a dynamic import): each screen is its own chunk, so the first load
   * carries only the shell and the screen it opens (scripts/check-bundle-size.mjs).
   */
  page: () => Promise<ComponentType>;
  /** spec 1 §2.1 "Needs": without it the guard sends the user to /error/403. */
  permission?: PermissionRule;
  /** The screen exists only while this feature flag is on; otherwise it is not found. */
  featureFlag?: FeatureFlagName;
  /** spec 1 §2.2: content in a fluid (full width) container. */
  fullWidth?: boolean;
}

/** What the layout reads from the matched route (React Router `handle`). */
export interface AreaRouteHandle {
  fullWidth?: boolean;
}
