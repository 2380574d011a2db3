import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { Pager } from './pager';

// A dialog's list pages as the grids do.
describe('the pager', () => {
  it('says which rows show, as the grids say it, and names its arrows as theirs', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <Pager page={2} pageSize={10} total={57} onChange={onChange} label="Delivery pages" />,
    );
    expect(screen.getByText('11–20 of 57')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onChange).toHaveBeenCalledWith(3);
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onChange).toHaveBeenCalledWith(1);
  });

  it('shows nothing when every row fits on one page', () => {
    const { container } = renderWithProviders(
      <Pager page={1} pageSize={10} total={10} onChange={() => {}} label="Pages" />,
    );
    expect(screen.queryByText(/of 10/)).not.toBeInTheDocument();
    expect(container.querySelector('.mantine-Pagination-root')).toBeNull();
  });
});
