import { Box, Button } from '@mantine/core';
import { IconHelp } from '@tabler/icons-react';
import { DeferredMenu } from './deferred-menu';

/** spec 1 §2.2: the Help menu of the top bar (its items: help-menu-items.tsx, loaded on use). */
export function HelpMenu() {
  return (
    <DeferredMenu
      target={
        // On a phone the icon alone: the word left no room for the rest.
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconHelp size={18} />}
          px="xs"
          aria-label="Help"
          style={{ flexShrink: 0 }}
          styles={{ section: { marginInlineEnd: 0 } }}
        >
          <Box component="span" visibleFrom="sm" ml={6}>
            Help
          </Box>
        </Button>
      }
      load={() => import('./help-menu-items').then((module) => module.HelpMenuLoaded)}
    />
  );
}
