import { Tabs } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CountTab } from './count-tab';

function Counted({
  count,
  attention,
}: {
  count: Parameters<typeof CountTab>[0]['count'];
  attention?: boolean;
}) {
  return (
    <Tabs defaultValue="documents">
      <Tabs.List>
        <CountTab value="documents" label="Documents" count={count} attention={attention} />
      </Tabs.List>
    </Tabs>
  );
}

// One way of counting a tab's list.
describe('a tab with a count', () => {
  it('shows a plain number as its badge, named for screen readers', () => {
    renderWithProviders(<Counted count={1234} />);
    const tab = screen.getByRole('tab', { name: /^Documents\s*1234 documents$/ });
    expect(tab).toHaveTextContent('Documents1,234');
  });

  it("says 'about' for a count the server estimated", () => {
    renderWithProviders(<Counted count={{ count: 10000, estimated: true }} />);
    expect(
      screen.getByRole('tab', { name: /^Documents\s*about 10000 documents$/ }),
    ).toHaveTextContent('~10,000');
  });

  it('shows no badge while the count is not known, and zero when there is nothing', () => {
    const { unmount } = renderWithProviders(<Counted count={undefined} />);
    expect(screen.getByRole('tab', { name: 'Documents' })).toBeInTheDocument();
    unmount();
    renderWithProviders(<Counted count={0} />);
    expect(screen.getByRole('tab', { name: /^Documents\s*0 documents$/ })).toBeInTheDocument();
  });

  it('turns orange when something in the list needs a look', () => {
    renderWithProviders(<Counted count={2} attention />);
    const badge = screen.getByLabelText('2 documents');
    expect(badge.closest('.mantine-Badge-root') ?? badge).toHaveStyle({
      '--badge-color': 'var(--mantine-color-orange-light-color)',
    });
  });
});
