import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { GridFilterControl } from './grid-filter-control';

// An amount the server cannot take is said, not dropped silently.
describe('the number filter', () => {
  it('says a number over 15 digits is refused and does not apply it', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <GridFilterControl
        spec={{ type: 'number' }}
        label="Amount"
        filter={undefined}
        onChange={onChange}
        close={() => {}}
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Amount at least' });
    await userEvent.type(input, '1234567890123456');
    expect(
      await screen.findByText('Enter a number with at most 15 digits before the decimal point.'),
    ).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The list keeps a filter it can send; the 16-digit number never reaches it.
    const applied = onChange.mock.calls.map(([filter]) => (filter as { value: number }).value);
    expect(applied.length).toBeGreaterThan(0);
    expect(applied.every((value) => String(value).length <= 15)).toBe(true);
  });
});
