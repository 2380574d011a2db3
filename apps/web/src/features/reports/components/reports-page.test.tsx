import type { AgedReceivables } from '@ledgerline/contract';
import { reportMessages } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { ReportsPage } from './reports-page';

beforeAll(prepareGridTests);

const report: AgedReceivables = {
  asOf: '2026-11-26',
  basis: 'DueDate',
  currency: 'GBP',
  currencies: ['EUR', 'GBP'],
  items: [
    {
      accountId: '0199f0aa-0000-7000-8000-0000000000b1',
      accountReference: 'BRAVO',
      name: 'Bravo Ltd',
      current: 70,
      days1to30: 50,
      days31to60: -40,
      days61to90: 380,
      over90: 0,
      total: 460,
    },
    {
      accountId: '0199f0aa-0000-7000-8000-0000000000a1',
      accountReference: 'ALPHA',
      name: 'Alpha Ltd',
      current: 1,
      days1to30: 6,
      days31to60: 24,
      days61to90: 96,
      over90: 128,
      total: 255,
    },
  ],
  totalItems: 2,
  totals: { current: 71, days1to30: 56, days31to60: -16, days61to90: 476, over90: 128, total: 715 },
};

const reportCalls = (calls: StubbedCall[]) =>
  calls.filter((call) => call.url.startsWith('/api/v0/reports/aged-receivables'));

function renderPage(path = '/reports?asOf=2026-11-26', reply: object = { body: report }) {
  const calls = stubFetch({ 'GET /reports/aged-receivables': reply });
  renderWithProviders(<ReportsPage />, { user: aUser(), path });
  return calls;
}

describe('Reports page', () => {
  it('asks for the day, the basis and the first page sorted by total, largest first', async () => {
    const calls = renderPage();
    await screen.findByRole('cell', { name: 'Bravo Ltd' });
    expect(reportCalls(calls)[0]?.url).toBe(
      '/api/v0/reports/aged-receivables?asOf=2026-11-26&basis=DueDate&page=1&itemsPerPage=10&sort=-total',
    );
  });

  it('shows each account’s buckets in the currency, and the totals row', async () => {
    renderPage();
    const row = (await screen.findByRole('cell', { name: 'Bravo Ltd' })).closest('tr') as HTMLElement;
    const table = screen.getByRole('table', { name: 'Aged receivables' });
    for (const text of ['£70.00', '£50.00', '-£40.00', '£380.00', '£0.00', '£460.00'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'BRAVO' })).toHaveAttribute(
      'href',
      `/accounts/${report.items[0]!.accountId}`,
    );
    const footer = table.querySelector('tfoot') as HTMLElement;
    for (const text of ['Total', '£71.00', '£56.00', '-£16.00', '£476.00', '£128.00', '£715.00'])
      expect(within(footer).getByText(text)).toBeInTheDocument();
  });

  it('draws a stacked bar for the company and each account, credits left out', async () => {
    renderPage();
    const chart = await screen.findByRole('img', { name: /Aged receivables by bucket/ });
    const bars = chart.querySelectorAll('g');
    expect(bars).toHaveLength(3);
    // Bravo's 31–60 days is a credit (−40): a segment of no width.
    const bravo = [...bars].find((bar) => bar.textContent?.startsWith('Bravo Ltd'))!;
    expect(bravo.querySelector('[data-bucket="days31to60"]')?.getAttribute('width')).toBe('0');
    expect(Number(bravo.querySelector('[data-bucket="days61to90"]')?.getAttribute('width'))).toBeGreaterThan(0);
  });

  it('sorts on a column and changes basis and currency through the address', async () => {
    const calls = renderPage();
    const user = userEvent.setup();
    await screen.findByRole('cell', { name: 'Bravo Ltd' });
    await user.click(screen.getByRole('button', { name: /^Over 90 days/ }));
    await waitFor(() => expect(reportCalls(calls).at(-1)?.url).toMatch(/sort=-?over90/));
    await user.click(screen.getByText('By transaction date'));
    await waitFor(() => expect(reportCalls(calls).at(-1)?.url).toContain('basis=TransactionDate'));
    await user.click(screen.getByRole('textbox', { name: 'Currency' }));
    await user.click(await screen.findByRole('option', { name: 'EUR' }));
    await waitFor(() => expect(reportCalls(calls).at(-1)?.url).toContain('currency=EUR'));
  });

  it('downloads the CSV of the report', async () => {
    const calls = renderPage();
    const user = userEvent.setup();
    await screen.findByRole('cell', { name: 'Bravo Ltd' });
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() =>
      expect(reportCalls(calls).some((call) => call.url.includes('format=csv'))).toBe(true),
    );
    const csv = reportCalls(calls).find((call) => call.url.includes('format=csv'))!;
    expect(csv.url).toBe(
      '/api/v0/reports/aged-receivables?asOf=2026-11-26&basis=DueDate&currency=GBP&format=csv',
    );
  });

  it('says so when no account owes anything', async () => {
    renderPage('/reports?asOf=2026-11-26', {
      body: { ...report, items: [], totalItems: 0, totals: { ...report.totals, current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0 } },
    });
    expect(await screen.findByText('No account owes anything in GBP on this day')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Aged receivables' }).querySelector('tfoot')).toBeNull();
    expect(screen.queryByRole('img', { name: /Aged receivables by bucket/ })).not.toBeInTheDocument();
  });

  it('shows the message under As of for a day that is not one, and asks nothing', async () => {
    const calls = renderPage('/reports?asOf=2026-02-30');
    expect(await screen.findByText(reportMessages.asOf)).toBeInTheDocument();
    expect(reportCalls(calls)).toHaveLength(0);
  });

  it('shows the server’s refusal under its field, and other failures in an alert', async () => {
    renderPage('/reports?asOf=2026-11-26', {
      status: 400,
      body: { type: 'about:blank', title: 'Bad Request', status: 400, errors: { asOf: [reportMessages.asOf] } },
    });
    expect(await screen.findByText(reportMessages.asOf)).toBeInTheDocument();
  });

  it('shows a load failure', async () => {
    renderPage('/reports?asOf=2026-11-26', {
      status: 500,
      body: { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Something failed.' },
    });
    expect(await screen.findByText('The report could not be loaded')).toBeInTheDocument();
  });
});
