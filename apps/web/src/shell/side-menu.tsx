import { NavLink } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '@/auth/api/get-me';
import { useFeatureFlags } from '@/lib/feature-flags';
import { useAreaRoutes } from './area-routes-context';
import { isMenuGroup, menuEntries, visibleMenu, type MenuGroup, type MenuLink } from './menu';

function isActive(path: string, pathname: string): boolean {
  if (path === '/') return pathname === '/';
  return pathname === path || pathname.startsWith(`${path}/`);
}

function MenuLinkItem({
  link,
  pathname,
  onNavigate,
}: {
  link: MenuLink;
  pathname: string;
  onNavigate?: () => void;
}) {
  const Icon = link.icon;
  const active = isActive(link.path, pathname);
  return (
    <NavLink
      component={Link}
      to={link.path}
      label={link.label}
      leftSection={<Icon size={18} stroke={1.6} />}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

/**
 * A group (Settings) folds its entries open and shut. Mantine's NavLink renders an anchor without
 * an address here, which is neither focusable nor announced; a button with aria-expanded is both.
 */
function MenuGroupItem({
  group,
  pathname,
  onNavigate,
}: {
  group: MenuGroup;
  pathname: string;
  onNavigate?: () => void;
}) {
  const Icon = group.icon;
  const childActive = group.children.some((child) => isActive(child.path, pathname));
  const [opened, setOpened] = useState(childActive);
  return (
    <NavLink
      component="button"
      type="button"
      label={group.label}
      leftSection={<Icon size={18} stroke={1.6} />}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      childrenOffset={28}
    >
      {group.children.map((child) => (
        <MenuLinkItem key={child.path} link={child} pathname={pathname} onNavigate={onNavigate} />
      ))}
    </NavLink>
  );
}

/** spec 1 §2.1, §2.2: the side menu, showing only what the user may open. */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const { byPath } = useAreaRoutes();
  const flags = useFeatureFlags();
  const { data: user } = useCurrentUser();
  if (!user) return null;

  const entries = visibleMenu(menuEntries, {
    routes: byPath,
    permissions: user.permissions,
    flags,
  });
  return (
    <nav aria-label="Main menu">
      {entries.map((entry) => {
        if (!isMenuGroup(entry)) {
          return (
            <MenuLinkItem
              key={entry.path}
              link={entry}
              pathname={pathname}
              onNavigate={onNavigate}
            />
          );
        }
        return (
          <MenuGroupItem
            key={entry.label}
            group={entry}
            pathname={pathname}
            onNavigate={onNavigate}
          />
        );
      })}
    </nav>
  );
}
