import type { AuditActivity, AuditLogsPage } from '@ledgerline/contract';
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

/** Three pages: first (no cursor, with the count), 'c2', 'c3'. */
const pages: Record<string, AuditLogsPage> = {
  '': {
    items: [activity(1, 'UpdateUserSettings')],
    next: 'c2',
    count: { count: 31, estimated: false },
  },
  c2: { items: [activity(2, 'CreateDataset')], next: 'c3' },
  c3: { items: [activity(3, 'DeleteAccessKey')], next: null },
};

const tenantPage: AuditLogsPage = {
  items: [{ ...activity(9, 'CreateUser'), datasetId: null }],
  next: null,
  count: { count: 1, estimated: false },
};

function renderPage() {
  window.localStorage.setItem(storageKeys.companyId, '2');
  const calls = stubFetch({
    'GET /data-sets/all': {
      body: { items: [aDataset({ id: 1 }), aDataset({ id: 2, name: 'Acme Europe' })] },
    },
    // The company's list (Dataset-Id) and the tenant's own (none), which has one activity.
    'GET /audit-logs': ({ url, headers }) => ({
      body: headers.has('Dataset-Id')
        ? pages[new URL(url, 'http://localhost').searchParams.get('cursor') ?? '']
        : tenantPage,
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
    // The tab's name is its label, then its count badge's once the count is known.
    expect(await screen.findByRole('tab', { name: /^Acme Europe/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('tab', { name: /^Tenant/ })).toBeInTheDocument();
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

    await userEvent.click(screen.getByRole('tab', { name: /^Tenant/ }));
    const panel = await screen.findByRole('tabpanel');
    // The tenant's own list, asked for without the company.
    await within(panel).findByText('Create User');
    expect(within(panel).queryByText('Update User Settings')).not.toBeInTheDocument();
    const tenantCalls = auditCalls(calls).filter((call) => !call.headers.has('Dataset-Id'));
    expect(tenantCalls.length).toBeGreaterThan(0);
    expect(
      auditCalls(calls).every(
        (call) => !call.headers.has('Dataset-Id') || call.headers.get('Dataset-Id') === '2',
      ),
    ).toBe(true);
  });

  it("shows each tab's count from its first page, the other tab's included", async () => {
    renderPage();
    const company = await screen.findByRole('tab', { name: /^Acme Europe/ });
    expect(company).toHaveAttribute('aria-selected', 'true');
    expect(await within(company).findByLabelText('31 activities')).toHaveTextContent('31');
    const tenant = screen.getByRole('tab', { name: /^Tenant/ });
    expect(tenant).toHaveAttribute('aria-selected', 'false');
    // The tenant's count is there before its tab is opened.
    expect(await within(tenant).findByLabelText('1 activities')).toHaveTextContent('1');
  });
});
