import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { ShellLayout } from './shell-layout';

function renderShell() {
  stubFetch({});
  renderWithProviders(<p>Elsewhere</p>, {
    user: aUser(),
    path: '/settings/details',
    routes: [
      {
        element: <ShellLayout routes={[]} />,
        children: [
          {
            path: '/settings/details',
            element: (
              <>
                <h1>Details</h1>
                <button type="button">First in the page</button>
              </>
            ),
          },
        ],
      },
    ],
  });
}

// One Tab reaches "Skip to content" (WCAG 2.4.1), which leads to the page.
describe('the skip link', () => {
  it('is the first tab stop and moves the focus to the main content', async () => {
    renderShell();
    await screen.findByRole('heading', { name: 'Details' });
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main-content');

    await userEvent.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveFocus();
    expect(main).toHaveAttribute('id', 'main-content');
    // The router saw no navigation: the address keeps no #hash.
    expect(window.location.hash).toBe('');
    // The next Tab goes on from the content, past the top bar and the menu.
    await userEvent.tab();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'First in the page' })).toHaveFocus(),
    );
  });
});
