import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { NewRequestDialog } from '@/features/payment-requests/components/new-request-dialog';
import { ExportDialog } from '@/features/payment-transactions/components/export-dialog';
import { UsersPage } from '@/features/users/components/users-page';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';

beforeAll(prepareGridTests);

const firstField = (dialog: HTMLElement) => dialog.querySelector('input');

// A dialog starts on its first field, not on its close button.
describe('dialogs focus their first field', () => {
  it('Add User', async () => {
    stubFetch({ 'GET /users': { body: { items: [], totalItems: 0 } } });
    renderWithProviders(<UsersPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await waitFor(() => expect(firstField(dialog)).toHaveFocus());
  });

  it('New Request, once its accounts are in', async () => {
    const account = {
      id: '0199f0aa-0000-7000-8000-0000000000a1',
      accountReference: 'A1',
      name: 'Acme',
      currency: 'GBP',
    };
    stubFetch({ 'GET /accounts': { body: { items: [account], totalItems: 1 } } });
    renderWithProviders(<NewRequestDialog opened onClose={() => {}} />, { user: aUser() });
    const dialog = await screen.findByRole('dialog');
    const picker = await screen.findByRole('textbox', { name: 'Account' });
    await waitFor(() => expect(picker).toHaveFocus());
    expect(firstField(dialog)).toBe(picker);
  });

  it('Export', async () => {
    stubFetch({});
    renderWithProviders(<ExportDialog opened onClose={() => {}} tableFilter="" />, {
      user: aUser(),
    });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(firstField(dialog)).toHaveFocus());
  });
});
