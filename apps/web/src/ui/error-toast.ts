import { wantToasts } from './toast-host';

/**
 * A failure's toast, once: the same message while its toast is still up adds no second one
 * (error toasts piled up). The toast system loads with the first toast
 * (docs/decisions/085-first-load-under-170-kb.md "First load under 170 KB").
 */
export function showErrorToast(message: string): void {
  wantToasts();
  void import('./toasts').then(({ notifications }) =>
    notifications.show({ id: `error:${message}`, color: 'red', message }),
  );
}
