import type { AuditActivity } from '@ledgerline/contract';
import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { stubFetch } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
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

// issue 10 item 12: the outcome in words, and the record the call touched.
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
    expect(await screen.findByText('Declined (200)')).toBeInTheDocument();
    expect(screen.getByText('The sandbox provider declined the capture.')).toBeInTheDocument();
    expect(screen.getByText('Succeeded (200)')).toBeInTheDocument();
    expect(screen.getByText('Not found (404)')).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: 'Open the payment transaction' });
    expect(links[0]).toHaveAttribute('href', `/payment-transactions/${paymentId}`);
    // A kind without a screen of its own is named, not linked.
    expect(screen.getByText('Settlement Offer')).toBeInTheDocument();
  });
});
