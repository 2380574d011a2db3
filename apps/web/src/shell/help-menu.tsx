import { Button } from '@mantine/core';
import { IconHelp } from '@tabler/icons-react';
import { DeferredMenu } from './deferred-menu';

/** spec 1 §2.2: the Help menu of the top bar (its items: help-menu-items.tsx, loaded on use). */
export function HelpMenu() {
  return (
    <DeferredMenu
      target={
        <Button variant="subtle" color="gray" leftSection={<IconHelp size={18} />} px="xs">
          Help
        </Button>
      }
      load={() => import('./help-menu-items').then((module) => module.HelpMenuLoaded)}
    />
  );
}
