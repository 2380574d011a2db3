import { Avatar, UnstyledButton } from '@mantine/core';
import { useCurrentUser } from '@/auth/api/get-me';
import { DeferredMenu } from './deferred-menu';
import { initials } from './initials';

/** spec 1 §2.2: the user's initials; the menu (user-menu-items.tsx) loads on use. */
export function UserMenu() {
  const { data: user } = useCurrentUser();
  const name = user?.displayName ?? '';

  return (
    <DeferredMenu
      target={
        <UnstyledButton aria-label="User menu" style={{ flexShrink: 0 }}>
          <Avatar color="indigo" radius="xl" size={36}>
            {initials(name || (user?.emailAddress ?? ''))}
          </Avatar>
        </UnstyledButton>
      }
      load={() => import('./user-menu-items').then((module) => module.UserMenuLoaded)}
    />
  );
}
