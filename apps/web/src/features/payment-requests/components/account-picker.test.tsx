import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { NewRequestDialog } from './new-request-dialog';

const account = (n: number, name: string) => ({
  id: `0199f0aa-0000-7000-8000-${String(n).padStart(12, '0')}`,
  accountReference: `ACC${String(n).padStart(6, '0')}`,
  name,
  currency: 'GBP',
});
const firstTwenty = Array.from({ length: 20 }, (_, i) => account(i + 1, `Customer ${i + 1}`));
const farAway = account(4321, 'Zephyr Holdings');

/** The first 20 without a filter; the search's matches for a `ct` filter on either field. */
function accountsAnswer(call: StubbedCall) {
  const filter = new URL(call.url, 'http://x').searchParams.get('filter');
  if (!filter) return { body: { items: firstTwenty, totalItems: 5000 } };
  const items = /zeph/i.test(filter) && filter.startsWith('name') ? [farAway] : [];
  return { body: { items, totalItems: items.length } };
}

// The first 20 accounts at first, then the server's matches as the user types.
describe('the New Request account picker', () => {
  it('searches the server beyond the first 20 accounts and says when nothing is found', async () => {
    const calls = stubFetch({ 'GET /accounts': accountsAnswer });
    renderWithProviders(<NewRequestDialog opened onClose={() => {}} />, { user: aUser() });
    const picker = await screen.findByRole('textbox', { name: 'Account' });
    expect(picker).toHaveValue('ACC000001 – Customer 1');

    await userEvent.clear(picker);
    await userEvent.type(picker, 'Zeph');
    const option = await screen.findByRole('option', { name: 'ACC004321 – Zephyr Holdings' });
    const searches = calls
      .map((call) => new URL(call.url, 'http://x').searchParams.get('filter'))
      .filter(Boolean);
    expect(searches).toEqual(expect.arrayContaining(['accountReference ct Zeph', 'name ct Zeph']));
    await userEvent.click(option);
    expect(picker).toHaveValue('ACC004321 – Zephyr Holdings');

    await userEvent.clear(picker);
    await userEvent.type(picker, 'no such customer');
    expect(await screen.findByText('Nothing found')).toBeInTheDocument();
    expect(screen.queryByRole('option')).toBeNull();
    // Leaving the search keeps the account chosen before.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(picker).toHaveValue('ACC004321 – Zephyr Holdings'));
    // It types two searches letter by letter: more than the default 5 s on a busy machine.
  }, 20_000);
});
