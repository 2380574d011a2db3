import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { StatementLinkButton } from './statement-link-button';

const accountId = '0199f0aa-0000-7000-8000-0000000000a1';
const linkPath = `POST /accounts/${accountId}/statement-link`;
const url = 'http://localhost:3000/statement/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

function renderButton(disabled = false) {
  renderWithProviders(<StatementLinkButton accountId={accountId} disabled={disabled} />, {
    user: aUser({ permissions: ['EditPaymentRequest'] as never }),
  });
}

describe('the account’s Statement link action', () => {
  it('issues a link and shows it with its expiry, ready to copy', async () => {
    const calls = stubFetch({ [linkPath]: { status: 201, body: { url, expiresAt: '2026-12-10T12:00:00.000Z' } } });
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Statement link' }));
    expect(await screen.findByRole('textbox', { name: 'Statement link' })).toHaveValue(url);
    expect(screen.getByText(/^Expires/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([`/api/v0/accounts/${accountId}/statement-link`]);
    await user.click(screen.getByRole('button', { name: 'Copy statement link' }));
    expect(await navigator.clipboard.readText()).toBe(url);
  });

  it('says when the link does not expire', async () => {
    stubFetch({ [linkPath]: { status: 201, body: { url, expiresAt: null } } });
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Statement link' }));
    expect(await screen.findByText('This link does not expire.')).toBeInTheDocument();
  });

  it('shows the loading state while the link is made', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('fetch', async () => {
      await held;
      return new Response(JSON.stringify({ url, expiresAt: null }), { status: 201, headers: { 'Content-Type': 'application/json' } });
    });
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Statement link' }));
    expect(await screen.findByText('Creating the statement link…')).toBeInTheDocument();
    release();
    expect(await screen.findByRole('textbox', { name: 'Statement link' })).toHaveValue(url);
  });

  it('shows why the link could not be made, and tries again', async () => {
    stubFetch({
      [linkPath]: { status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: `Account ${accountId} was not found.` } },
    });
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Statement link' }));
    expect(await screen.findByText(`Account ${accountId} was not found.`)).toBeInTheDocument();
    stubFetch({ [linkPath]: { status: 201, body: { url, expiresAt: null } } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('textbox', { name: 'Statement link' })).toHaveValue(url);
  });

  it('is disabled without EditPaymentRequest', () => {
    stubFetch({});
    renderButton(true);
    expect(screen.getByRole('button', { name: 'Statement link' })).toBeDisabled();
  });
});
