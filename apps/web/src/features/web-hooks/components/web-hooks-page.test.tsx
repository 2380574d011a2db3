import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { WebHooksPage } from './web-hooks-page';

const user = aUser({ permissions: ['ConfigureSystemSettings'] });

describe('Web hooks', () => {
  it('frames the Svix portal from dashboard-access when Svix delivers', async () => {
    stubFetch({
      'GET /integrations/svix/dashboard-access': {
        body: { mode: 'Svix', url: 'https://app.svix.com/login#key=abc', frameable: true },
      },
    });
    renderWithProviders(<WebHooksPage />, { user });
    const frame = await screen.findByTitle('Web hooks');
    expect(frame).toHaveAttribute('src', 'https://app.svix.com/login#key=abc');
  });

  it('says why a self-hosted Svix portal is not shown', async () => {
    stubFetch({
      'GET /integrations/svix/dashboard-access': {
        body: { mode: 'Svix', url: 'http://svix.internal/app-portal', frameable: false },
      },
    });
    renderWithProviders(<WebHooksPage />, { user });
    await screen.findByText('Managed on your Svix server');
    expect(screen.queryByTitle('Web hooks')).not.toBeInTheDocument();
  });

  it('shows the empty state, then refuses an http URL beside the field with the server’s message', async () => {
    const calls = stubFetch({
      'GET /integrations/svix/dashboard-access': {
        body: { mode: 'Embedded', url: null, frameable: false },
      },
      'GET /web-hooks/endpoints': { body: { items: [] } },
      'POST /web-hooks/endpoints': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'URL must start with https://',
          errors: {
            url: [
              'URL must start with https:// (http:// is accepted only for this computer in development)',
            ],
          },
        },
      },
    });
    renderWithProviders(<WebHooksPage />, { user });
    await screen.findByText('No endpoints yet. Add one to start receiving events.');
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await screen.findByText('URL is required');
    fireEvent.change(screen.getByRole('textbox', { name: 'URL' }), {
      target: { value: 'http://erp.acme.test/hooks' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(
      'URL must start with https:// (http:// is accepted only for this computer in development)',
    );
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      url: 'http://erp.acme.test/hooks',
      description: null,
      eventTypes: [],
      disabled: false,
    });
  });
});
