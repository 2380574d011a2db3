import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

interface ConfirmOptions {
  /** The dialog title ('Delete User'). */
  title: string;
  /** The question, naming what is affected. */
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
}

/**
 * Asks before a destructive action (delete). The dialog renders outside the router: the message
 * must not rely on router hooks.
 */
export function confirmDestructive({
  title,
  message,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  onConfirm,
}: ConfirmOptions): void {
  modals.openConfirmModal({
    title,
    centered: true,
    children: typeof message === 'string' ? <Text size="sm">{message}</Text> : message,
    labels: { confirm: confirmLabel, cancel: cancelLabel },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
