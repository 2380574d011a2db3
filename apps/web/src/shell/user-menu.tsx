import { Avatar, Box, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconFileText, IconLogout, IconShieldLock, IconUserCog } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useCurrentUser } from '@/auth/api/get-me';
import { signOutNow } from '@/auth/sign-in';
import { initials } from './initials';
import { openPrivacyPolicy, openTermsOfService } from './legal-notices';

/** spec 1 §2.2: initials, name and e-mail, terms, privacy, my settings and sign out. */
export function UserMenu() {
  const { data: user } = useCurrentUser();
  const queryClient = useQueryClient();
  const name = user?.displayName ?? '';

  return (
    <Menu position="bottom-end" width={260} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label="User menu" style={{ flexShrink: 0 }}>
          <Avatar color="indigo" radius="xl" size={36}>
            {initials(name || (user?.emailAddress ?? ''))}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Box px="sm" py="xs">
          <Text fw={600} size="sm" truncate="end">
            {name}
          </Text>
          <Text c="dimmed" size="xs" truncate="end">
            {user?.emailAddress}
          </Text>
        </Box>
        <Menu.Divider />
        <Menu.Item component={Link} to="/my-settings" leftSection={<IconUserCog size={16} />}>
          My settings
        </Menu.Item>
        <Menu.Item leftSection={<IconFileText size={16} />} onClick={openTermsOfService}>
          Terms of service
        </Menu.Item>
        <Menu.Item leftSection={<IconShieldLock size={16} />} onClick={openPrivacyPolicy}>
          Privacy policy
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => void signOutNow(queryClient)}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
