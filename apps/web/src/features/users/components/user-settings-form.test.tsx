import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { MySettingsPage } from './my-settings-page';

const user = aUser();

describe('My settings', () => {
  it('shows the read-only profile with a copyable company id', () => {
    renderWithProviders(<MySettingsPage />, { user });
    expect(screen.getByLabelText('Display name')).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@acme.test');
    expect(screen.getByLabelText('Company id')).toHaveValue(user.tenantId);
    expect(screen.getByRole('button', { name: 'Copy company id' })).toBeInTheDocument();
  });

  it('previews 8 April 2020 15:30 in the chosen formats, live', async () => {
    renderWithProviders(<MySettingsPage />, { user });
    expect(screen.getByTestId('short-example')).toHaveTextContent('2020/04/08 15:30:00');
    expect(screen.getByTestId('long-example')).toHaveTextContent('8 April 2020 15:30:00');
    await userEvent.click(screen.getByRole('switch', { name: '24-hour clock' }));
    expect(screen.getByTestId('short-example')).toHaveTextContent('2020/04/08 3:30:00 pm');
  });

  it("saves, says 'User settings successfully updated' and refetches the profile", async () => {
    const saved = { ...user.userSetting, use24Hour: false, showAdvancedInfo: true };
    let meCalls = 0;
    const calls = stubFetch({
      'PUT /users/me/settings': ({ body }) => ({ body }),
      'GET /users/me': () => {
        meCalls += 1;
        return { body: { ...user, userSetting: saved } };
      },
    });
    const { queryClient } = renderWithProviders(<MySettingsPage />, { user });

    await userEvent.click(screen.getByRole('switch', { name: '24-hour clock' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Enabled' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('User settings successfully updated')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual(saved);
    await waitFor(() => expect(meCalls).toBe(1));
    expect(queryClient.getQueryData(queryKeys.users.me())).toMatchObject({ userSetting: saved });
  });

  it("says 'An error occurred while updating the user settings' and shows field errors", async () => {
    stubFetch({
      'PUT /users/me/settings': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'The settings are not valid.',
          errors: { timeZoneId: ['Unknown time zone.'] },
        },
      },
    });
    renderWithProviders(<MySettingsPage />, { user });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText('An error occurred while updating the user settings'),
    ).toBeInTheDocument();
    expect(screen.getByText('Unknown time zone.')).toBeInTheDocument();
    expect(screen.queryByText('User settings successfully updated')).not.toBeInTheDocument();
  });
});
