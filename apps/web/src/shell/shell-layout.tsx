import { AppShell, Container, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, useMatches } from 'react-router';
import { isEmbedded } from '@/lib/session';
import type { AreaRoute, AreaRouteHandle } from './area-route';
import { AreaRoutesProvider } from './area-routes-context';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

function wantsFullWidth(handle: unknown): boolean {
  return (
    typeof handle === 'object' && handle !== null && (handle as AreaRouteHandle).fullWidth === true
  );
}

/** spec 1 §2.2: top bar, side menu from md up (a burger below), and the page. */
export function ShellLayout({ routes }: { routes: readonly AreaRoute[] }) {
  const [navOpened, { toggle, close }] = useDisclosure(false);
  const matches = useMatches();
  const fluid = isEmbedded() || matches.some((match) => wantsFullWidth(match.handle));

  return (
    <AreaRoutesProvider routes={routes}>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 264, breakpoint: 'md', collapsed: { mobile: !navOpened } }}
        padding="md"
      >
        <AppShell.Header>
          <TopBar navOpened={navOpened} onToggleNav={toggle} />
        </AppShell.Header>
        <AppShell.Navbar p="xs">
          <AppShell.Section grow component={ScrollArea}>
            <SideMenu onNavigate={close} />
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main>
          <Container fluid={fluid} size="xl" px={0}>
            <Outlet />
          </Container>
        </AppShell.Main>
      </AppShell>
    </AreaRoutesProvider>
  );
}
