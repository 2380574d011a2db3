import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { aPayer, accountId, payerId } from './account-fixtures';
import { PayersPage } from './payers-page';

beforeAll(prepareGridTests);

// /payers, the payers of every account of the company.
describe('the payers list', () => {
  it('lists the company payers newest first, each opening its account payer page', async () => {
    const calls = stubFetch({
      'GET /payers': { body: { items: [aPayer()], totalItems: 1, totalItemsEstimated: false } },
    });
    renderWithProviders(<PayersPage />, { user: aUser(), path: '/payers' });
    expect(await screen.findByRole('heading', { name: 'Payers' })).toBeInTheDocument();
    expect(await screen.findByText('Acme Widgets Ltd')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View payer Jo Bloggs' })).toHaveAttribute(
      'href',
      `/accounts/${accountId}/payers/${payerId}`,
    );
    const list = calls.find((call) => call.url.startsWith('/api/v0/payers'));
    expect(new URL(list!.url, 'http://x').searchParams.get('sort')).toBe('-createdOn');
  });
});
