import type { User } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { UsersPage } from './users-page';

beforeAll(prepareGridTests);

const me = aUser();
const ada: User = {
  id: me.id,
  displayName: 'Ada Lovelace',
  emailAddress: 'ada@acme.test',
  role: 'Administrator',
  lastSignInAt: '2024-03-01T10:00:00Z',
  invitationPending: false,
};
const charles: User = {
  id: '0192f3a4-5b6c-7d8e-9f01-000000000002',
  displayName: 'Charles Babbage',
  emailAddress: 'charles@acme.test',
  role: 'Standard',
  lastSignInAt: null,
  invitationPending: true,
};
const problem = (status: number, extra: Record<string, unknown> = {}) => ({
  status,
  body: { type: 'about:blank', title: 'Conflict', status, ...extra },
});

function renderPage(routes: Parameters<typeof stubFetch>[0] = {}) {
  const calls = stubFetch({ 'GET /users/all': { body: { items: [charles, ada] } }, ...routes });
  renderWithProviders(<UsersPage />, { user: me, path: '/settings/users' });
  return calls;
}

const rowOf = async (name: string) => {
  const cell = await screen.findByText(name);
  return cell.closest('tr') as HTMLElement;
};

describe('Users page', () => {
  it('lists users by name, marks invitations and leaves the own row without delete', async () => {
    renderPage();
    await screen.findByText('Charles Babbage');
    const rows = screen.getAllByRole('row');
    const names = rows
      .map((row) => within(row).queryAllByRole('cell')[0]?.textContent)
      .filter(Boolean);
    expect(names).toEqual(['Ada Lovelace', 'Charles BabbageInvited']);
    const own = await rowOf('Ada Lovelace');
    expect(within(own).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(within(own).getByRole('button', { name: 'Edit Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Charles Babbage' })).toBeInTheDocument();
    // The own row keeps the delete slot empty, so Edit stays in its column.
    const editCell = within(own).getByRole('button', { name: 'Edit Ada Lovelace' }).parentElement!;
    expect(editCell.lastElementChild).toHaveAttribute('data-slot', 'no-delete');
  });

  it("adds a user and says 'New user successfully created and invited'", async () => {
    const calls = renderPage({ 'POST /users': { status: 201, body: { ...charles, id: 'x' } } });
    await screen.findByText('Ada Lovelace');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), '  Grace Hopper ');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'grace@acme.test');
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Viewer' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText('New user successfully created and invited'),
    ).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Grace Hopper',
      email: 'grace@acme.test',
      role: 'Viewer',
      redirectUri: `${window.location.origin}/`,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  // Said once, beside the fields, not again in a toast.
  it('shows 409 duplicates inline, and not a second time in a toast', async () => {
    renderPage({
      'POST /users': problem(409, {
        detail: 'User with the same email address already exists.',
        errors: {
          email: ['User with the same email address already exists.'],
          name: ['User with the same name already exists.'],
        },
      }),
    });
    await screen.findByText('Ada Lovelace');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'ADA@acme.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(
      await within(dialog).findByText('User with the same email address already exists.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('User with the same name already exists.')).toBeInTheDocument();
    expect(
      screen.queryByText(
        'An error occurred while creating the user: User with the same email address already exists.',
      ),
    ).not.toBeInTheDocument();
  });

  it('edits the name and the role with two calls', async () => {
    const calls = renderPage({
      'PUT /users/0192f3a4-5b6c-7d8e-9f01-000000000002': ({ body }) => ({ body }),
      'PUT /users/0192f3a4-5b6c-7d8e-9f01-000000000002/role': { body: charles },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Charles Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByRole('textbox', { name: 'Email' })).toBeDisabled();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Charles B.');
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Administrator' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('User successfully updated')).toBeInTheDocument();
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => call.url)).toEqual([
      `/api/v0/users/${charles.id}`,
      `/api/v0/users/${charles.id}/role?role=Administrator`,
    ]);
    // spec 1 §3, §7: PUT users/{id} takes id and displayName.
    expect(puts[0]?.body).toEqual({ id: charles.id, displayName: 'Charles B.' });
  });

  it('does not let users change their own role', async () => {
    const calls = renderPage({ [`PUT /users/${me.id}`]: ({ body }) => ({ body }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByRole('textbox', { name: 'Role' })).toBeDisabled();
    expect(within(dialog).getByText('You cannot change your own role.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User successfully updated')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
  });

  it("shows the server's name clash under Name when a rename is refused", async () => {
    renderPage({
      [`PUT /users/${charles.id}`]: problem(409, {
        detail: 'User with the same name already exists.',
        errors: { displayName: ['User with the same name already exists.'] },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Charles Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada Lovelace');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('User with the same name already exists.'),
    ).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows the server's 409 detail when an update is refused", async () => {
    renderPage({
      [`PUT /users/${charles.id}`]: ({ body }) => ({ body }),
      [`PUT /users/${charles.id}/role`]: problem(409, {
        detail: 'The company must keep at least one Administrator.',
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Charles Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Viewer' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'An error occurred while updating the user: The company must keep at least one Administrator.',
      ),
    ).toBeInTheDocument();
  });

  it("deletes after a confirmation naming the user and says 'User successfully deleted'", async () => {
    const calls = renderPage({ [`DELETE /users/${charles.id}`]: { status: 204 } });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Charles Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete User' });
    expect(within(dialog).getByText(/Charles Babbage/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User successfully deleted')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });

  it('says why a delete failed', async () => {
    renderPage({
      [`DELETE /users/${charles.id}`]: problem(409, { detail: 'You cannot delete yourself.' }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Charles Babbage' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete User' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(
      await screen.findByText(
        'An error occurred while deleting the user: You cannot delete yourself.',
      ),
    ).toBeInTheDocument();
  });

  it("says 'An error occurred while getting the users' when the list fails", async () => {
    renderPage({ 'GET /users/all': problem(500, { title: 'Internal Server Error' }) });
    expect(
      await screen.findByText('An error occurred while getting the users'),
    ).toBeInTheDocument();
  });
});
