import type { AuditActivity } from '@ledgerline/contract';
import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { stubFetch } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { activityOutcome } from '../table/use-activity-columns';
import { ActivitiesPage } from './activities-page';

beforeAll(prepareGridTests);

const paymentId = '0199f0aa-0000-7000-8000-0000000000e1';
const activity = (n: number, overrides: Partial<AuditActivity>): AuditActivity => ({
  id: `0192f3a4-5b6c-7d8e-9f01-${String(n).padStart(12, '0')}`,
  operation: 'CapturePendingPayment',
  userName: 'ada@acme.test',
  timestamp: '2024-03-01T10:00:00Z',
  status: 200,
  errorMessage: null,
  ipAddress: '203.0.113.7',
  datasetId: 1,
  resourceType: 'PaymentTransaction',
  resourceId: paymentId,
  ...overrides,
});

// The outcome in words, and the record the call touched.
describe('an activity', () => {
  it('says a declined capture was declined, not a green 200, and links the payment', async () => {
    window.localStorage.setItem(storageKeys.companyId, '1');
    stubFetch({
      'GET /data-sets/all': { body: { items: [aDataset({ id: 1 })] } },
      'GET /audit-logs': {
        body: {
          items: [
            activity(1, { errorMessage: 'The sandbox provider declined the capture.' }),
            activity(2, {}),
            activity(3, { operation: 'UpdateBank', status: 404, resourceType: 'SettlementOffer' }),
          ],
          next: null,
        },
      },
    });
    renderWithProviders(<ActivitiesPage />, { user: aUser(), path: '/activities' });
    expect(await screen.findByText('Declined')).toBeInTheDocument();
    expect(screen.getByText('The sandbox provider declined the capture.')).toBeInTheDocument();
    expect(screen.getByText('Succeeded')).toBeInTheDocument();
    expect(screen.getByText('Refused: not found')).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: 'Open the payment transaction' });
    expect(links[0]).toHaveAttribute('href', `/payment-transactions/${paymentId}`);
    // A kind without a screen of its own is named, not linked.
    expect(screen.getByText('Settlement Offer')).toBeInTheDocument();
  });
});

// What happened in words, never 'SUCCEEDED (204)'; the code stays as the title.
describe('an activity status', () => {
  it.each([
    [200, 'Succeeded', 'success'],
    [201, 'Succeeded', 'success'],
    [204, 'Succeeded', 'success'],
    [400, 'Refused: invalid input', 'danger'],
    [401, 'Refused: not signed in', 'danger'],
    [403, 'Refused: not allowed', 'danger'],
    [404, 'Refused: not found', 'danger'],
    [409, 'Refused: conflicting change', 'danger'],
    [413, 'Refused: file too large', 'danger'],
    [422, 'Refused: invalid input', 'danger'],
    [429, 'Refused: too many requests', 'danger'],
    [418, 'Refused', 'danger'],
    [500, 'Failed: server error', 'danger'],
    [503, 'Failed: server error', 'danger'],
  ] as const)('answered %i reads %s', (status, label, tone) => {
    expect(activityOutcome(activity(1, { status }))).toEqual({ label, tone });
  });

  it('a 2xx answer carrying an error message was declined', () => {
    expect(activityOutcome(activity(1, { status: 204, errorMessage: 'Declined.' }))).toEqual({
      label: 'Declined',
      tone: 'danger',
    });
  });

  it('shows the words as written, with the status code only as the badge title', async () => {
    window.localStorage.setItem(storageKeys.companyId, '1');
    stubFetch({
      'GET /data-sets/all': { body: { items: [aDataset({ id: 1 })] } },
      'GET /audit-logs': {
        body: {
          items: [
            activity(1, { status: 204 }),
            activity(2, { status: 422 }),
            activity(3, { status: 500 }),
          ],
          next: null,
        },
      },
    });
    renderWithProviders(<ActivitiesPage />, { user: aUser(), path: '/activities' });
    const succeeded = await screen.findByText('Succeeded');
    expect(screen.getByText('Refused: invalid input')).toBeInTheDocument();
    expect(screen.getByText('Failed: server error')).toBeInTheDocument();
    expect(screen.queryByText(/\(204\)/)).not.toBeInTheDocument();
    const badge = succeeded.closest('.mantine-Badge-root');
    expect(badge).toHaveAttribute('title', 'HTTP 204');
    expect(badge).toHaveStyle({ textTransform: 'none' });
  });
});
