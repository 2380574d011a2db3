import type { DashboardFigures } from '@ledgerline/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { FiguresPanel } from './figures-panel';

const figures: DashboardFigures = {
  asOf: '2026-11-26',
  currency: 'GBP',
  outstanding: 22611.8,
  overdue: 9500.25,
  overdueInvoices: 14,
  failedPayments: 3,
  failedAmount: 420.5,
  dso: 41.5,
  months: [
    { month: '2026-10', collected: 1200, fallingDue: 3000 },
    { month: '2026-11', collected: 800, fallingDue: 0 },
  ],
};

const figureCalls = (calls: { url: string }[]) => calls.filter((call) => call.url.startsWith('/api/v0/dashboard/figures'));

describe('Dashboard money figures', () => {
  it('shows outstanding, overdue, DSO, collected and falling due, each a link to its list', async () => {
    const calls = stubFetch({ 'GET /dashboard/figures': { body: figures } });
    renderWithProviders(<FiguresPanel />, { user: aUser() });
    const outstanding = await screen.findByRole('link', { name: /^Outstanding £22,611.80/ });
    expect(outstanding).toHaveAttribute('href', '/reports');
    expect(screen.getByRole('link', { name: /^Overdue £9,500.25 14 invoices past due/ })).toHaveAttribute(
      'href',
      '/reports?basis=DueDate',
    );
    expect(screen.getByRole('link', { name: /^DSO 41.5 days/ })).toHaveAttribute('href', '/reports');
    expect(screen.getByRole('link', { name: /^Collected £2,000.00/ })).toHaveAttribute('href', '/payment-transactions');
    expect(screen.getByRole('link', { name: /^Falling due £3,000.00/ })).toHaveAttribute('href', '/transactions');
    expect(screen.getByRole('link', { name: /^Failed payments £420.50 3 attempts in the last 12 months/ })).toHaveAttribute(
      'href',
      '/payment-transactions',
    );
    const chart = screen.getByRole('img', { name: /Collected against falling due/ });
    expect(chart.querySelectorAll('rect[data-series="collected"]')).toHaveLength(2);
    expect(figureCalls(calls)[0]?.url).toBe('/api/v0/dashboard/figures?months=12');
  });

  it('asks again for the period chosen', async () => {
    const calls = stubFetch({ 'GET /dashboard/figures': { body: figures } });
    renderWithProviders(<FiguresPanel />, { user: aUser() });
    await screen.findByRole('link', { name: /^Outstanding/ });
    await userEvent.click(screen.getByText('3 months'));
    await waitFor(() => expect(figureCalls(calls).at(-1)?.url).toBe('/api/v0/dashboard/figures?months=3'));
  });

  it('says N/A for DSO without sales, and when nothing moved in the period', async () => {
    stubFetch({
      'GET /dashboard/figures': {
        body: { ...figures, dso: null, months: [{ month: '2026-11', collected: 0, fallingDue: 0 }] },
      },
    });
    renderWithProviders(<FiguresPanel />, { user: aUser() });
    expect(await screen.findByRole('link', { name: /^DSO N\/A/ })).toBeInTheDocument();
    expect(screen.getByText('Nothing collected or falling due in the period.')).toBeInTheDocument();
  });

  it('shows a loading error', async () => {
    stubFetch({ 'GET /dashboard/figures': { status: 500, body: { type: 'about:blank', title: 'Error', status: 500 } } });
    renderWithProviders(<FiguresPanel />, { user: aUser() });
    expect(await screen.findByText('Loading Error')).toBeInTheDocument();
  });
});
