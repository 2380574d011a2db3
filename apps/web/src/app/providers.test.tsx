import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { QueryClient } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { showErrorToast } from '@/ui/error-toast';
import { AppProviders } from './providers';

// Error toasts do not pile up.
describe('toasts', () => {
  it('shows three at a time, and a repeated failure once', async () => {
    render(
      <AppProviders queryClient={new QueryClient()}>
        <p>page</p>
      </AppProviders>,
    );
    act(() => {
      for (const n of [1, 2, 3, 4, 5]) showErrorToast(`Failure ${n}`);
    });
    expect(await screen.findByText('Failure 3')).toBeInTheDocument();
    expect(screen.queryByText('Failure 4')).not.toBeInTheDocument();
    act(() => notifications.clean());
    act(() => {
      showErrorToast('The server could not be reached.');
      showErrorToast('The server could not be reached.');
    });
    expect(await screen.findAllByText('The server could not be reached.')).toHaveLength(1);
  });
});

// docs/decisions/085-first-load-under-170-kb.md "First load under 170 KB": the dialogs provider loads with the first dialog.
describe('dialogs', () => {
  it('shows a dialog asked for before the provider has loaded, and the next ones', async () => {
    render(
      <AppProviders queryClient={new QueryClient()}>
        <p>page</p>
      </AppProviders>,
    );
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    act(() => {
      modals.open({ title: 'First dialog', children: <p>first</p> });
    });
    expect(await screen.findByRole('dialog', { name: 'First dialog' })).toBeInTheDocument();
    act(() => modals.closeAll());
    act(() => {
      modals.openConfirmModal({ title: 'Second dialog', labels: { confirm: 'Yes', cancel: 'No' } });
    });
    expect(await screen.findByRole('dialog', { name: 'Second dialog' })).toBeInTheDocument();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });
});
