import { Box, Menu, Text } from '@mantine/core';
import {
  IconExternalLink,
  IconFileText,
  IconLogout,
  IconShieldLock,
  IconUserCog,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useCurrentUser } from '@/auth/api/get-me';
import { signOutNow } from '@/auth/sign-in';
import { useSiteInfo } from '@/lib/api/get-site-info';
import type { LoadedMenuProps } from './deferred-menu';

/** spec 1 §2.2: the user menu's name and e-mail, terms, privacy, my settings and sign out. */
export function UserMenuLoaded({ target, defaultOpened }: LoadedMenuProps) {
  const { data: user } = useCurrentUser();
  // The operator's own documents (TERMS_OF_SERVICE_URL, PRIVACY_POLICY_URL); none configured: no item.
  const { data: site } = useSiteInfo();
  const queryClient = useQueryClient();
  const name = user?.displayName ?? '';

  return (
    <Menu position="bottom-end" width={260} shadow="md" defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        {/* Who is signed in: divs, not paragraphs, which a menu may not hold (axe
            aria-required-children). */}
        <Box px="sm" py="xs">
          <Text component="div" fw={600} size="sm" truncate="end">
            {name}
          </Text>
          <Text component="div" c="dimmed" size="xs" truncate="end">
            {user?.emailAddress}
          </Text>
        </Box>
        <Menu.Divider />
        <Menu.Item component={Link} to="/my-settings" leftSection={<IconUserCog size={16} />}>
          My settings
        </Menu.Item>
        {site?.termsOfServiceUrl && (
          <Menu.Item
            component="a"
            href={site.termsOfServiceUrl}
            target="_blank"
            rel="noopener noreferrer"
            leftSection={<IconFileText size={16} />}
            rightSection={<IconExternalLink size={14} />}
          >
            Terms of service
          </Menu.Item>
        )}
        {site?.privacyPolicyUrl && (
          <Menu.Item
            component="a"
            href={site.privacyPolicyUrl}
            target="_blank"
            rel="noopener noreferrer"
            leftSection={<IconShieldLock size={16} />}
            rightSection={<IconExternalLink size={14} />}
          >
            Privacy policy
          </Menu.Item>
        )}
        <Menu.Divider />
        {/* Menu items colour their text red 6 (3.3:1): the readable red (theme.ts). */}
        <Menu.Item
          color="red"
          c="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => void signOutNow(queryClient)}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
