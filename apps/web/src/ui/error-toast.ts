import { notifications } from '@mantine/notifications';

/**
 * A failure's toast, once: the same message while its toast is still up adds no second one
 * (issue 10 item 13: error toasts piled up).
 */
export function showErrorToast(message: string): void {
  notifications.show({ id: `error:${message}`, color: 'red', message });
}
