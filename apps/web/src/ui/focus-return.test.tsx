import { Button, Modal, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { installFocusReturn } from './focus-return';

let stop = () => {};
beforeEach(() => {
  stop = installFocusReturn();
});
afterEach(() => stop());

/** A dialog mounted already open, as many of the site's are: Mantine never sees its opener. */
function EditName() {
  const [editing, setEditing] = useState(false);
  return (
    <>
      <Button onClick={() => setEditing(true)}>Edit name</Button>
      {editing && (
        <Modal opened onClose={() => setEditing(false)} title="Edit name">
          <TextInput label="Name" />
        </Modal>
      )}
    </>
  );
}

// Escape closes a dialog and the focus is back on its opener (WCAG 2.4.3).
describe('focus after a dialog', () => {
  it('goes back to the button that opened a dialog mounted open, after Escape', async () => {
    renderWithProviders(<EditName />);
    const opener = screen.getByRole('button', { name: 'Edit name' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Edit name' });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('goes back to the opener of a confirmation (modals.openConfirmModal)', async () => {
    renderWithProviders(
      <Button
        onClick={() =>
          modals.openConfirmModal({
            title: 'Delete key',
            labels: { confirm: 'Delete', cancel: 'Cancel' },
          })
        }
      >
        Delete key
      </Button>,
    );
    const opener = screen.getByRole('button', { name: 'Delete key' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Delete key' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(opener).toHaveFocus());
    act(() => modals.closeAll());
  });
});
