import { Alert, AppShell, Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { Outlet, useMatches } from 'react-router';
import { getWebsiteView, startEmbeddedView } from '@/lib/embedded-view';
import { isEmbedded } from '@/lib/session';
import type { AreaRoute, AreaRouteHandle } from './area-route';
import { AreaRoutesProvider } from './area-routes-context';
import { EmbeddedViewChecks } from './embedded-view';
import { SideMenu } from './side-menu';
import { mainContentClass, mainContentId, SkipLink } from './skip-link';
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
  // spec 3 §2: limitview and parenturl are read once, when the site starts in a frame.
  const [embeddedView] = useState(() => startEmbeddedView(window.location.search));
  const view = getWebsiteView();
  const withHeader = !view?.removeHeader;
  const withMenu = !view?.removeMenu;

  return (
    <AreaRoutesProvider routes={routes}>
      <SkipLink />
      <AppShell
        header={withHeader ? { height: 60 } : undefined}
        navbar={
          withMenu ? { width: 264, breakpoint: 'md', collapsed: { mobile: !navOpened } } : undefined
        }
        padding="md"
      >
        {withHeader && (
          <AppShell.Header>
            <TopBar navOpened={navOpened} onToggleNav={toggle} />
          </AppShell.Header>
        )}
        {withMenu && (
          <AppShell.Navbar p="xs">
            {/* The browser's own scrolling, not Mantine's ScrollArea: 8 KB of the first load
                (docs/decisions/085-first-load-under-170-kb.md "First load under 170 KB"). */}
            <AppShell.Section grow style={{ overflowY: 'auto' }}>
              <SideMenu onNavigate={close} />
            </AppShell.Section>
          </AppShell.Navbar>
        )}
        <AppShell.Main id={mainContentId} tabIndex={-1} className={mainContentClass}>
          <EmbeddedViewChecks />
          <Container fluid={fluid} size="xl" px={0}>
            {embeddedView.error ? (
              <Alert color="red" title="The embedded view cannot start">
                {embeddedView.error}
              </Alert>
            ) : (
              <Outlet />
            )}
          </Container>
        </AppShell.Main>
      </AppShell>
    </AreaRoutesProvider>
  );
}
