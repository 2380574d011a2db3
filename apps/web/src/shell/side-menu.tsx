import { NavLink } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '@/auth/api/get-me';
import { useFeatureFlags } from '@/lib/feature-flags';
import { useAreaRoutes } from './area-routes-context';
import { isMenuGroup, menuEntries, visibleMenu, type MenuLink } from './menu';

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
        const Icon = entry.icon;
        const childActive = entry.children.some((child) => isActive(child.path, pathname));
        return (
          <NavLink
            key={entry.label}
            label={entry.label}
            leftSection={<Icon size={18} stroke={1.6} />}
            defaultOpened={childActive}
            childrenOffset={28}
          >
            {entry.children.map((child) => (
              <MenuLinkItem
                key={child.path}
                link={child}
                pathname={pathname}
                onNavigate={onNavigate}
              />
            ))}
          </NavLink>
        );
      })}
    </nav>
  );
}
