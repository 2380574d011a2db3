import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { DashboardPage } from './dashboard-page';

describe('Dashboard', () => {
  it('shows a red banner for each notification kind the contract does not allow (404 = false)', async () => {
    stubFetch({
      'GET /tenant-settings/AllowCustomerNotifications': {
        body: { name: 'AllowCustomerNotifications', value: 'false' },
      },
      // AllowInternalNotifications is not stored: 404 means false.
    });
    renderWithProviders(<DashboardPage panels={[]} />, { user: aUser() });
    expect(await screen.findByText('Customer notifications are not allowed')).toBeInTheDocument();
    expect(await screen.findByText('Internal notifications are not allowed')).toBeInTheDocument();
  });

  it('shows no banner when both are allowed, and the registered panels', async () => {
    stubFetch({
      'GET /tenant-settings/AllowCustomerNotifications': {
        body: { name: 'AllowCustomerNotifications', value: 'true' },
      },
      'GET /tenant-settings/AllowInternalNotifications': {
        body: { name: 'AllowInternalNotifications', value: 'true' },
      },
    });
    renderWithProviders(
      <DashboardPage panels={[{ id: 'to-do', span: 'full', element: <p>To-do panel</p> }]} />,
      { user: aUser() },
    );
    expect(await screen.findByText('To-do panel')).toBeInTheDocument();
    expect(screen.queryByText(/notifications are not allowed/)).not.toBeInTheDocument();
  });

  it("dates the header in the user's long format", () => {
    stubFetch({});
    renderWithProviders(<DashboardPage panels={[]} />, {
      user: aUser({ userSetting: { ...aUser().userSetting, longDateFormat: 'EEEE, d MMMM yyyy' } }),
    });
    expect(screen.getByText(/Today is \w+day, \d{1,2} \w+ \d{4}\./)).toBeInTheDocument();
  });
});
