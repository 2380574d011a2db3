import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { getCompanyId, setCompanyId } from '@/lib/storage';
import { stubFetch } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { RedirectRoute, redirectTarget } from './redirect';

const id = '0199f0aa-0000-7000-8000-0000000000c1';

function renderRedirect(search: string) {
  stubFetch({
    'GET /data-sets/all': {
      body: { items: [aDataset({ id: 1 }), aDataset({ id: 2, name: 'Brookfield Ltd' })] },
    },
  });
  return renderWithProviders(<p>Home page</p>, {
    user: aUser(),
    path: `/rd${search}`,
    routes: [
      { path: '/rd', element: <RedirectRoute /> },
      { path: '/payment-transactions/:id', element: <p>Payment transaction page</p> },
      { path: '/transactions/:id', element: <p>Transaction page</p> },
      { path: '/accounts/:id', element: <p>Account page</p> },
    ],
  });
}

describe('the redirect page /rd (spec 2 §2)', () => {
  beforeEach(() => setCompanyId(1));

  it.each([
    ['pt', 'Payment transaction page', '/payment-transactions'],
    ['tr', 'Transaction page', '/transactions'],
    ['ac', 'Account page', '/accounts'],
  ])('et=%s stores the company ds and opens the record eid', async (kind, page, path) => {
    const { router } = renderRedirect(`?et=${kind}&eid=${id}&ds=2`);
    expect(await screen.findByText(page)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`${path}/${id}`);
    expect(getCompanyId()).toBe(2);
  });

  it('keeps the company when ds is not one of the user’s companies', async () => {
    renderRedirect(`?et=pt&eid=${id}&ds=77`);
    expect(await screen.findByText('Payment transaction page')).toBeInTheDocument();
    expect(getCompanyId()).toBe(1);
  });

  it('goes home for an unknown record kind or a malformed id, without stopping on itself', async () => {
    const { router } = renderRedirect(`?et=zz&eid=${id}&ds=2`);
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getCompanyId()).toBe(2);
  });

  it('reads the record kinds of the spec only', () => {
    expect(redirectTarget(new URLSearchParams(`et=pt&eid=${id}`))).toBe(
      `/payment-transactions/${id}`,
    );
    expect(redirectTarget(new URLSearchParams('et=tr&eid=not-an-id'))).toBe('/');
    expect(redirectTarget(new URLSearchParams(`et=toString&eid=${id}`))).toBe('/');
    expect(redirectTarget(new URLSearchParams(`eid=${id}`))).toBe('/');
    expect(redirectTarget(new URLSearchParams(''))).toBe('/');
  });
});
