import { Modal, Select } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';

// What the theme gives every dialog and option list.
describe('the theme on components', () => {
  it("names a dialog's close button, keeps it out of the tab order, and adds no banner", async () => {
    renderWithProviders(
      <Modal opened onClose={() => {}} title="Edit name">
        <input aria-label="Name" />
      </Modal>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit name' });
    const close = screen.getByRole('button', { name: 'Close dialog' });
    expect(dialog).toContainElement(close);
    expect(close).toHaveAttribute('tabindex', '-1');
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('scrolls a long option list in a dropdown the keyboard reaches (axe scrollable-region-focusable)', async () => {
    const options = Array.from({ length: 30 }, (_, index) => `Option ${index + 1}`);
    renderWithProviders(<Select label="Pick" data={options} />);
    await userEvent.click(screen.getByRole('textbox', { name: 'Pick' }));
    const listbox = await screen.findByRole('listbox');
    // Its dropdown scrolls and takes the focus; nothing but options inside the listbox.
    const dropdown = listbox.parentElement!;
    expect(dropdown.style.overflowY).toBe('auto');
    expect(dropdown).toHaveAttribute('tabindex', '0');
    expect(listbox.querySelector('.mantine-ScrollArea-viewport, [tabindex]')).toBeNull();
    expect(within(listbox).getAllByRole('option')).toHaveLength(30);
  });
});
