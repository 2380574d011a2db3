import type { AuditActivity } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { ActivitiesPage } from './activities-page';

beforeAll(prepareGridTests);

const activity = (id: number, operation: string): AuditActivity => ({
  id: `0192f3a4-5b6c-7d8e-9f01-${String(id).padStart(12, '0')}`,
  operation,
  userName: 'ada@acme.test',
  timestamp: '2024-03-01T10:00:00Z',
  status: 200,
  errorMessage: null,
  ipAddress: '203.0.113.7',
  datasetId: 2,
  resourceType: null,
  resourceId: null,
});

/** Three pages: first (no cursor), 'c2', 'c3'. */
const pages: Record<string, { items: AuditActivity[]; next: string | null }> = {
  '': { items: [activity(1, 'UpdateUserSettings')], next: 'c2' },
  c2: { items: [activity(2, 'CreateDataset')], next: 'c3' },
  c3: { items: [activity(3, 'DeleteAccessKey')], next: null },
};

function renderPage() {
  window.localStorage.setItem(storageKeys.companyId, '2');
  const calls = stubFetch({
    'GET /data-sets/all': {
      body: { items: [aDataset({ id: 1 }), aDataset({ id: 2, name: 'Acme Europe' })] },
    },
    'GET /audit-logs': ({ url }) => ({
      body: pages[new URL(url, 'http://localhost').searchParams.get('cursor') ?? ''],
    }),
  });
  renderWithProviders(<ActivitiesPage />, { user: aUser(), path: '/activities' });
  return calls;
}

const auditCalls = (calls: StubbedCall[]) =>
  calls.filter((call) => call.url.startsWith('/api/v0/audit-logs'));

describe('Activities page', () => {
  it('names the company tab after the current company and spaces operations into words', async () => {
    renderPage();
    expect(await screen.findByRole('tab', { name: 'Acme Europe' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('tab', { name: 'Tenant' })).toBeInTheDocument();
    expect(await screen.findByText('Update User Settings')).toBeInTheDocument();
    expect(screen.getByText('ada@acme.test')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.7')).toBeInTheDocument();
  });

  it('pages with Next and goes back with Previous through the cursor stack', async () => {
    const calls = renderPage();
    await screen.findByText('Update User Settings');
    const previous = screen.getByRole('button', { name: 'Previous' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(previous).toBeDisabled();

    await userEvent.click(next);
    expect(await screen.findByText('Create Dataset')).toBeInTheDocument();
    await waitFor(() => expect(next).toBeEnabled());
    await userEvent.click(next);
    expect(await screen.findByText('Delete Access Key')).toBeInTheDocument();
    await waitFor(() => expect(next).toBeDisabled());
    expect(previous).toBeEnabled();

    await userEvent.click(previous);
    expect(await screen.findByText('Create Dataset')).toBeInTheDocument();
    await userEvent.click(previous);
    expect(await screen.findByText('Update User Settings')).toBeInTheDocument();
    expect(previous).toBeDisabled();

    // Going back shows the cached page (refetched here, where nothing stays fresh).
    expect([...new Set(auditCalls(calls).map((call) => call.url))]).toEqual([
      '/api/v0/audit-logs?itemsPerPage=15',
      '/api/v0/audit-logs?itemsPerPage=15&cursor=c2',
      '/api/v0/audit-logs?itemsPerPage=15&cursor=c3',
    ]);
  });

  it('sends Dataset-Id for the company tab and not for the tenant tab', async () => {
    const calls = renderPage();
    await screen.findByText('Update User Settings');
    expect(auditCalls(calls)[0]?.headers.get('Dataset-Id')).toBe('2');

    await userEvent.click(screen.getByRole('tab', { name: 'Tenant' }));
    const panel = await screen.findByRole('tabpanel');
    await within(panel).findByText('Update User Settings');
    await waitFor(() => expect(auditCalls(calls)).toHaveLength(2));
    expect(auditCalls(calls)[1]?.headers.has('Dataset-Id')).toBe(false);
  });
});
