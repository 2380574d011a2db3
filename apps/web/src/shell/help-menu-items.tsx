import { Menu } from '@mantine/core';
import { IconBook, IconCode, IconExternalLink, IconMail } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { LoadedMenuProps } from './deferred-menu';

/** Where operators point "Contact support"; set VITE_SUPPORT_EMAIL when building the site to show it. */
export const supportEmail: string | undefined = import.meta.env.VITE_SUPPORT_EMAIL || undefined;

/** spec 1 §2.2: the Help menu's items. */
export function HelpMenuLoaded({ target, defaultOpened }: LoadedMenuProps) {
  return (
    <Menu position="bottom-end" width={240} shadow="md" defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/help" leftSection={<IconBook size={16} />}>
          User guide
        </Menu.Item>
        <Menu.Item
          component="a"
          href="/api/docs"
          target="_blank"
          rel="noopener noreferrer"
          leftSection={<IconCode size={16} />}
          rightSection={<IconExternalLink size={14} />}
        >
          API reference
        </Menu.Item>
        {supportEmail && (
          <Menu.Item
            component="a"
            href={`mailto:${supportEmail}`}
            leftSection={<IconMail size={16} />}
          >
            Contact support
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
