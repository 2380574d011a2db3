import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { NotificationsPage } from './notifications-page';

const recipient = {
  id: '0192f3a4-5b6c-7d8e-9f01-000000000001',
  type: 'EmailAddress',
  userId: null,
  emailAddress: 'finance@acme.test',
  displayName: 'finance@acme.test',
  notificationSettings: [
    'TenantPaymentSuccessful',
    'TenantPaymentFailed',
    'TenantPaymentProcessing',
  ].map((name) => ({
    notificationUserId: '0192f3a4-5b6c-7d8e-9f01-000000000001',
    notificationName: name,
    isEnabled: false,
  })),
};

describe('Notifications', () => {
  it('offers only the e-mail address when every user is added, and switches a notification on', async () => {
    const calls = stubFetch({
      'GET /notifications/users': { body: { items: [recipient], availableUsers: [] } },
      'PUT /notifications/users': { body: recipient },
    });
    renderWithProviders(<NotificationsPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    const toggle = await screen.findByRole('switch', {
      name: 'Payment successful for finance@acme.test',
    });
    fireEvent.click(screen.getByRole('textbox', { name: 'Recipient' }));
    expect(screen.queryByRole('option', { name: 'Ledgerline user' })).not.toBeInTheDocument();
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
        id: recipient.id,
        notificationSettings: [{ notificationName: 'TenantPaymentSuccessful', isEnabled: true }],
      }),
    );
  });

  it("shows the e-mail address's message and adds nothing when it is not valid", async () => {
    const calls = stubFetch({
      'GET /notifications/users': {
        body: {
          items: [],
          availableUsers: [
            {
              id: '0192f3a4-5b6c-7d8e-9f01-000000000002',
              displayName: 'Ada',
              emailAddress: 'ada@acme.test',
            },
          ],
        },
      },
    });
    renderWithProviders(<NotificationsPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    fireEvent.change(await screen.findByRole('textbox', { name: 'E-mail address' }), {
      target: { value: 'not-an-address' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(
      await screen.findByText('Email address must be a valid email address'),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('textbox', { name: 'Recipient' }));
    expect(await screen.findByRole('option', { name: 'Ledgerline user' })).toBeInTheDocument();
  });
});
