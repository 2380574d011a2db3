import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { HelpMenu } from './help-menu';

describe('HelpMenu', () => {
  it('links to the user guide shipped with the site and to the API reference', async () => {
    renderWithProviders(<HelpMenu />, { user: aUser() });
    await userEvent.click(screen.getByRole('button', { name: 'Help' }));
    expect(await screen.findByRole('menuitem', { name: 'User guide' })).toHaveAttribute(
      'href',
      '/help',
    );
    expect(screen.getByRole('menuitem', { name: 'API reference' })).toHaveAttribute(
      'href',
      '/api/docs',
    );
  });
});
