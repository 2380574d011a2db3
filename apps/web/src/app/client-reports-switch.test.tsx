import { screen, waitFor } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { startClientReports, type ClientReporter } from '@/lib/client-reports';
import { ApiError } from '@/lib/http';
import { stubFetch } from '@/test/fetch-stub';
import { renderWithProviders } from '@/test/render';
import { RouteErrorElement } from '@/shell/error-page';
import { ClientReportsSwitch } from './client-reports-switch';

let reporter: ClientReporter | null = null;
afterEach(() => {
  reporter?.stop();
  window.history.replaceState(null, '', '/');
});

function Crash({ error }: { error: unknown }): never {
  throw error;
}

/** A screen that throws while rendering, under the router's error boundary. */
function renderCrashingScreen(error: unknown, clientReports: boolean) {
  const calls = stubFetch({
    'GET /info/site': {
      body: { termsOfServiceUrl: null, privacyPolicyUrl: null, clientReports },
    },
    'POST /client-reports': { status: 204 },
  });
  // The browser's address (the memory router keeps its own).
  window.history.replaceState(null, '', '/payment-transactions/1');
  // No sendBeacon in jsdom: the reporter posts with fetch, through the stub.
  reporter = startClientReports();
  const switchAndScreen = (
    <>
      <ClientReportsSwitch reporter={reporter} />
      <Outlet />
    </>
  );
  renderWithProviders(<p>elsewhere</p>, {
    path: '/payment-transactions/1',
    routes: [
      {
        element: switchAndScreen,
        children: [
          {
            path: '/payment-transactions/:id',
            element: <Crash error={error} />,
            errorElement: <RouteErrorElement />,
          },
        ],
      },
    ],
  });
  return calls;
}

describe('error and web-vitals reports in the site (spec 1 §8)', () => {
  it("posts a screen's crash from the router's error boundary to client-reports", async () => {
    const calls = renderCrashingScreen(new Error('amount is undefined'), true);
    expect(await screen.findByText('amount is undefined')).toBeInTheDocument();
    await waitFor(() => {
      reporter!.flush();
      expect(calls.filter((call) => call.url === '/api/v0/client-reports')).toHaveLength(1);
    });
    const call = calls.find((each) => each.url === '/api/v0/client-reports')!;
    expect(call.method).toBe('POST');
    expect(call.body).toEqual({
      reports: [
        expect.objectContaining({
          type: 'error',
          source: 'react',
          message: 'amount is undefined',
          path: '/payment-transactions/1',
        }),
      ],
    });
  });

  it('posts nothing when the installation has reports off', async () => {
    const calls = renderCrashingScreen(new Error('amount is undefined'), false);
    expect(await screen.findByText('amount is undefined')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.url === '/api/v0/info/site')).toBe(true));
    reporter!.flush();
    expect(calls.some((call) => call.url === '/api/v0/client-reports')).toBe(false);
  });

  it('does not report a refused call: the server knows of it', async () => {
    const calls = renderCrashingScreen(
      new ApiError(500, { type: 'about:blank', title: 'Internal', status: 500 }),
      true,
    );
    await waitFor(() => expect(calls.some((call) => call.url === '/api/v0/info/site')).toBe(true));
    reporter!.flush();
    expect(calls.some((call) => call.url === '/api/v0/client-reports')).toBe(false);
  });
});
