import { Notifications, notifications, notificationsStore } from '@mantine/notifications';

/**
 * The toast list and its store. Loaded when the first toast is shown or the browser is idle after
 * the first screen (app/deferred-overlays.tsx), not with the first load.
 */
export { notifications };

/** Three toasts at a time, the rest wait their turn. */
const toastLimit = 3;
const toastPosition = 'top-right';

// The store learns its limit and position when <Notifications> mounts; toasts shown before then
// (a page's own `notifications.show`) are spread again over the list and its queue.
notificationsStore.updateState((state) => ({
  ...state,
  limit: toastLimit,
  defaultPosition: toastPosition,
}));
notifications.updateState(notificationsStore, (list) => list);

export function Toasts() {
  return <Notifications position={toastPosition} limit={toastLimit} />;
}
