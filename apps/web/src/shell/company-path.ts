import { uuidPattern } from '@ledgerline/contract';

/**
 * spec 1 §2.2: after choosing a company, a page whose path ends in a GUID (a record of the old
 * company) is left for its parent path. Null: stay on the page (reload it).
 */
export function parentPathIfRecord(pathname: string): string | null {
  const segments = pathname.replace(/\/+$/, '').split('/');
  const last = segments[segments.length - 1] ?? '';
  if (!uuidPattern.test(last)) return null;
  return segments.slice(0, -1).join('/') || '/';
}

/** spec 1 §2.2: the dropdown is hidden on the access keys, companies, users and web hooks pages. */
export const companySwitcherHiddenOn = [
  '/settings/access-keys',
  '/settings/companies',
  '/settings/users',
  '/settings/web-hooks',
] as const;

export function isCompanySwitcherHidden(pathname: string): boolean {
  return companySwitcherHiddenOn.some(
    (path) => pathname === path || pathname.startsWith(`${path}/`),
  );
}
