import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getWebsiteView, parentUrlMissing } from '@/lib/embedded-view';
import { navigateAway, parentRedirectMessageType } from '@/lib/parent-redirect';
import { storageKeys } from '@/lib/storage';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { ShellLayout } from './shell-layout';

// The signed-in user's tenant (aUser): the current company is always one of its.
const tenantId = '0192f3a4-0000-7000-8000-000000000001';

/** Runs the site as if a parent page had framed it. */
function inFrame(search: string) {
  const parent = { postMessage: vi.fn() };
  Object.defineProperty(window, 'parent', { value: parent, configurable: true });
  window.history.replaceState(null, '', `/settings/details${search}`);
  return parent;
}

function renderShell(path = '/settings/details') {
  stubFetch({});
  renderWithProviders(<p>Elsewhere</p>, {
    user: aUser(),
    path,
    routes: [
      {
        element: <ShellLayout routes={[]} />,
        children: [
          { path: '/settings/details', element: <p>The page</p> },
          { path: '/error/:code', element: <p>Error page</p> },
        ],
      },
    ],
  });
}

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  Object.defineProperty(window, 'parent', { value: window, configurable: true });
  window.history.replaceState(null, '', '/');
});

describe('embedded view (spec 3 §2)', () => {
  it("says 'Parent url is not defined' when limitview comes without a parent url", async () => {
    inFrame('?limitview=true');
    renderShell();
    expect(await screen.findByText(parentUrlMissing)).toBeInTheDocument();
    expect(screen.queryByText('The page')).toBeNull();
  });

  it('keeps the settings under one key and leaves out the menu it was asked to', async () => {
    inFrame(
      '?limitview=true&parenturl=https%3A%2F%2Ferp.example.com%2Fportal&removeMenu=true&allowParentRedirects=true',
    );
    renderShell();
    expect(await screen.findByText('The page')).toBeInTheDocument();
    expect(JSON.parse(window.sessionStorage.getItem(storageKeys.websiteView)!)).toEqual({
      allowParentRedirects: true,
      removeMenu: true,
      removeHeader: false,
      removeTitle: false,
      parentUrl: 'https://erp.example.com/portal',
    });
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).toBeNull();
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });

  it('sends redirects to the parent, to its origin only, when allowed', () => {
    const parent = inFrame('');
    window.sessionStorage.setItem(
      storageKeys.websiteView,
      JSON.stringify({
        allowParentRedirects: true,
        removeMenu: false,
        removeHeader: false,
        removeTitle: false,
        parentUrl: 'https://erp.example.com/portal',
      }),
    );
    navigateAway('https://connect.stripe.com/oauth/authorize?x=1');
    expect(parent.postMessage).toHaveBeenCalledWith(
      {
        type: parentRedirectMessageType,
        url: 'https://connect.stripe.com/oauth/authorize?x=1',
      },
      'https://erp.example.com',
    );
  });

  it('applies nothing outside a frame', () => {
    window.history.replaceState(null, '', '/?limitview=true');
    window.sessionStorage.setItem(storageKeys.websiteView, JSON.stringify({ removeMenu: true }));
    expect(getWebsiteView()).toBeNull();
  });

  it('lands on the 1000 page when tenantId is not the current company’s tenant', async () => {
    inFrame('?tenantId=0195f0c2-0000-7000-8000-000000000999');
    renderShell('/settings/details?tenantId=0195f0c2-0000-7000-8000-000000000999');
    expect(await screen.findByText('Error page')).toBeInTheDocument();
  });

  it('stays when tenantId is the current company’s tenant', async () => {
    inFrame(`?tenantId=${tenantId}`);
    renderShell(`/settings/details?tenantId=${tenantId}`);
    expect(await screen.findByText('The page')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Error page')).toBeNull());
  });
});
