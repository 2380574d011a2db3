import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';

/** The site as main.tsx renders it, at `path`, with the API down: every call fails. */
async function renderSiteWithApiDown(path: string) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      calls.push(String(input));
      throw new TypeError('Failed to fetch');
    }),
  );
  window.history.replaceState(null, '', path);
  // app.tsx makes its router and query client when loaded: a fresh copy per test.
  vi.resetModules();
  const { App } = await import('./app');
  render(<App />);
  return { calls };
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

// The whole router waited on `info/feature-flags`, so /health showed an error while the
// API was down.
describe('/health (spec 1 §2.1: "Shows the word Healthy; no sign-in needed")', () => {
  it('shows Healthy while the API is down, and asks it nothing', async () => {
    const { calls } = await renderSiteWithApiDown('/health');
    expect(await screen.findByText('Healthy')).toBeInTheDocument();
    expect(document.title).toMatch(/Health/);
    expect(screen.queryByText('Loading Ledgerline')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('while every other screen still waits for the feature flags (spec 1 §4)', async () => {
    storeSession(3600, null);
    const { calls } = await renderSiteWithApiDown('/my-settings');
    expect(
      await screen.findByText('We encountered an error while processing your request.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(calls.some((url) => url.includes('/info/feature-flags'))).toBe(true);
  });
});
