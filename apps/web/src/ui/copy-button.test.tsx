import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { CopyButton } from './copy-button';

/** The toasts shown (Mantine's notifications are alerts). */
const toastWith = (text: string) =>
  screen.findByText(text, { selector: '.mantine-Notification-description' });

afterEach(() => vi.restoreAllMocks());

// Spec 2 §8: "copied to clipboard" is a success toast, wherever a value is copied.
describe('copying a value', () => {
  it('copies it and says Copied to clipboard in a toast', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CopyButton value="https://pay.example/abc" label="payment URL" />, {
      user: aUser(),
    });
    await user.click(screen.getByRole('button', { name: 'Copy payment URL' }));
    const toast = await toastWith('Copied to clipboard');
    expect(
      within(toast.closest('[role="alert"]')!).getByText('Copied to clipboard'),
    ).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('https://pay.example/abc');
  });

  it('says the browser did not allow it, and not Copied to clipboard, when the clipboard refuses', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('Denied', 'NotAllowedError'),
    );
    renderWithProviders(<CopyButton value="secret" label="signing secret" />, { user: aUser() });
    await user.click(screen.getByRole('button', { name: 'Copy signing secret' }));
    expect(
      await toastWith('The browser did not allow copying to the clipboard.'),
    ).toBeInTheDocument();
    expect(
      screen.queryByText('Copied to clipboard', { selector: '.mantine-Notification-description' }),
    ).toBeNull();
  });
});
