import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ErrorPage } from './error-page';

function renderError(code: string, detail?: string) {
  const { router } = renderWithProviders(<p>home</p>, {
    path: '/error/placeholder',
    routes: [{ path: '/error/:code', element: <ErrorPage /> }],
  });
  void router.navigate(`/error/${code}`, { state: { detail } });
  return router;
}

describe('error pages (spec 1 §2.5)', () => {
  it('404: not-found illustration, message and go-home link', async () => {
    renderError('404');
    expect(await screen.findByText("We can't find the requested page.")).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Ledgerline | Error');
  });

  it('403: forbidden illustration, message and go-home link', async () => {
    renderError('403');
    expect(await screen.findByText('Forbidden request')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Access forbidden' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toBeInTheDocument();
  });

  it('502 and 503: message and go-home link', async () => {
    renderError('502');
    expect(
      await screen.findByText(
        'The server encountered a temporary error and could not complete your request.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toBeInTheDocument();
  });

  it('503: service unavailable', async () => {
    renderError('503');
    expect(await screen.findByText('Service is unavailable.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toBeInTheDocument();
  });

  it('1000: message and detail, no go-home link', async () => {
    renderError('1000', 'The company belongs to another tenant.');
    expect(
      await screen.findByText('Cannot access information. Please sign out and sign back in.'),
    ).toBeInTheDocument();
    expect(screen.getByText('The company belongs to another tenant.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go home' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('any other code: generic message with detail and go-home link', async () => {
    renderError('unknown', 'The server could not be reached.');
    // The placeholder route shows the generic message too: wait for the navigation's detail.
    expect(await screen.findByText('The server could not be reached.')).toBeInTheDocument();
    expect(
      screen.getByText('We encountered an error while processing your request.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toBeInTheDocument();
  });

  // Opened without a detail (a link, a reload), they still show one.
  it('1000 and any other code show a detail when none was handed over', async () => {
    const router = renderError('1000');
    expect(
      await screen.findByText(
        'Error 1000: the information belongs to another organisation than the one you are signed in to.',
      ),
    ).toBeInTheDocument();
    await router.navigate('/error/500');
    expect(await screen.findByText('Error 500.')).toBeInTheDocument();
    expect(
      screen.getByText('We encountered an error while processing your request.'),
    ).toBeInTheDocument();
  });
});
