import { Burger, Group } from '@mantine/core';
import { CompanySwitcher } from './company-switcher';
import { HelpMenu } from './help-menu';
import { CompanyLogo, Logo } from './logo';
import { UserMenu } from './user-menu';

interface TopBarProps {
  navOpened: boolean;
  onToggleNav: () => void;
}

/** spec 1 §2.2: below md the side menu folds into the top bar behind a burger. */
export function TopBar({ navOpened, onToggleNav }: TopBarProps) {
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
        <Burger
          opened={navOpened}
          onClick={onToggleNav}
          hiddenFrom="md"
          size="sm"
          aria-label={navOpened ? 'Close navigation' : 'Open navigation'}
        />
        <Logo />
        <CompanyLogo />
      </Group>
      {/* On a phone the company name gives way, never the user menu. */}
      <Group gap="xs" wrap="nowrap" miw={0}>
        <HelpMenu />
        <CompanySwitcher />
        <UserMenu />
      </Group>
    </Group>
  );
}
