import type { FeatureFlagName, FeatureFlags } from '@ledgerline/contract';
import {
  IconActivity,
  IconAddressBook,
  IconAdjustments,
  IconBell,
  IconMailForward,
  IconBuilding,
  IconBuildingBank,
  IconBuildingSkyscraper,
  IconCalendarDollar,
  IconChartBar,
  IconClockExclamation,
  IconCoins,
  IconCreditCard,
  IconGavel,
  IconDiscount,
  IconFileInvoice,
  IconHome,
  IconKey,
  IconPalette,
  IconPlugConnected,
  IconReceipt,
  IconSettings,
  IconUsers,
  IconWebhook,
  type Icon,
} from '@tabler/icons-react';
import { isFlagOn } from '@/lib/feature-flags';
import { checkPermission, type PermissionRule } from '@/lib/permissions';
import type { AreaRoute } from './area-route';

export interface MenuLink {
  label: string;
  path: string;
  icon: Icon;
  /** spec 1 §2.2 menu permission (the route's own permission is checked as well). */
  permission?: PermissionRule;
  featureFlag?: FeatureFlagName;
}

export interface MenuGroup {
  label: string;
  icon: Icon;
  children: readonly MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

export function isMenuGroup(entry: MenuEntry): entry is MenuGroup {
  return 'children' in entry;
}

/** spec 1 §2.1: ManageAccessKeys with the NewAccessKeyPage flag, else ManageSubscriptionKeys. */
export const accessKeysPermission: PermissionRule = (flags) =>
  isFlagOn(flags, 'NewAccessKeyPage') ? 'ManageAccessKeys' : 'ManageSubscriptionKeys';

/** spec 1 §2.1 menu side entries, in their order, with the permissions of §2.2 and §6. */
export const menuEntries: readonly MenuEntry[] = [
  { label: 'Home', path: '/', icon: IconHome },
  { label: 'Payment Requests', path: '/payment-requests', icon: IconFileInvoice },
  { label: 'Payment Transactions', path: '/payment-transactions', icon: IconCreditCard },
  // Not in the spec: the disputes and chargebacks providers report.
  { label: 'Disputes', path: '/disputes', icon: IconGavel },
  { label: 'Accounts', path: '/accounts', icon: IconAddressBook },
  { label: 'Transactions', path: '/transactions', icon: IconReceipt },
  { label: 'Banks', path: '/banks', icon: IconBuildingBank },
  { label: 'Payment Plans', path: '/payment-plans', icon: IconCalendarDollar },
  { label: 'Settlements', path: '/settlement-configurations', icon: IconDiscount },
  { label: 'Late Payments', path: '/late-payments', icon: IconClockExclamation },
  // Not in the spec: the aged receivables report.
  { label: 'Reports', path: '/reports', icon: IconChartBar },
  { label: 'Activities', path: '/activities', icon: IconActivity, permission: 'ViewAuditLogs' },
  {
    label: 'Settings',
    icon: IconSettings,
    children: [
      { label: 'Company Details', path: '/settings/details', icon: IconBuilding },
      {
        label: 'Customisation',
        path: '/settings/customisation',
        icon: IconPalette,
        permission: 'ConfigureSystemSettings',
      },
      {
        label: 'Preferences',
        path: '/settings/preferences',
        icon: IconAdjustments,
        permission: 'ConfigureSystemSettings',
      },
      {
        label: 'Payment Providers',
        path: '/settings/payment-providers',
        icon: IconPlugConnected,
        permission: { anyOf: ['ConfigurePaymentProvider', 'DeletePaymentProvider'] },
      },
      // Not in the spec: reminders of unpaid invoices.
      { label: 'Reminder Schedules', path: '/settings/reminders', icon: IconMailForward },
      {
        label: 'Notifications',
        path: '/settings/notifications',
        icon: IconBell,
        permission: 'ConfigureSystemSettings',
      },
      {
        label: 'Access Keys',
        path: '/settings/access-keys',
        icon: IconKey,
        permission: accessKeysPermission,
      },
      {
        label: 'Users',
        path: '/settings/users',
        icon: IconUsers,
        permission: 'ConfigureSystemSettings',
      },
    ],
  },
  { label: 'Companies', path: '/settings/companies', icon: IconBuildingSkyscraper },
  { label: 'Funding Search', path: '/funding', icon: IconCoins, featureFlag: 'Capitalise' },
  {
    label: 'Web Hooks',
    path: '/settings/web-hooks',
    icon: IconWebhook,
    permission: 'ConfigureSystemSettings',
  },
];

export interface MenuAccess {
  /** Registered screens by path: an entry without one is not shown. */
  routes: ReadonlyMap<string, Pick<AreaRoute, 'permission' | 'featureFlag'>>;
  permissions: readonly string[];
  flags: FeatureFlags;
}

function linkVisible(link: MenuLink, access: MenuAccess): boolean {
  const route = access.routes.get(link.path);
  if (!route) return false;
  const flag = link.featureFlag ?? route.featureFlag;
  if (flag && !isFlagOn(access.flags, flag)) return false;
  return (
    checkPermission(link.permission, access.permissions, access.flags) &&
    checkPermission(route.permission, access.permissions, access.flags)
  );
}

/** spec 1 §2.2, §6: entries without their route, flag or permission are hidden. */
export function visibleMenu(entries: readonly MenuEntry[], access: MenuAccess): MenuEntry[] {
  const visible: MenuEntry[] = [];
  for (const entry of entries) {
    if (isMenuGroup(entry)) {
      const children = entry.children.filter((child) => linkVisible(child, access));
      if (children.length > 0) visible.push({ ...entry, children });
    } else if (linkVisible(entry, access)) {
      visible.push(entry);
    }
  }
  return visible;
}
