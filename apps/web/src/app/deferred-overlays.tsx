import {
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { areToastsWanted, subscribeToToastsWanted, wantToasts } from '@/ui/toast-host';

/**
 * Toasts and dialogs load when the site first needs them, not with the first screen
 * (docs/decisions/085-first-load-under-170-kb.md "First load under 170 KB"): the toast list (with its transitions) and the
 * dialogs provider (with Mantine's Modal and ScrollArea) are JavaScript that the sign-in landing
 * and the dashboard do not show. Nothing the first load imports may import `@mantine/modals` or
 * `@mantine/notifications`: the package would come back into the first load whole.
 */

const Toasts = lazy(() => import('@/ui/toasts').then((module) => ({ default: module.Toasts })));

/** How long the browser may stay busy after the page has loaded before the toast list loads. */
const toastsIdleTimeoutMs = 3000;

/**
 * The toast list: mounted with the first `showErrorToast`, the user's first click or key press
 * (the screens' own toasts answer what the user did), or once the browser is idle after the page
 * has loaded (a screen that shows a toast by itself, such as a provider's return page).
 */
export function DeferredNotifications() {
  const wanted = useSyncExternalStore(subscribeToToastsWanted, areToastsWanted);
  useEffect(() => {
    if (wanted) return;
    let cancelIdle = () => {};
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') {
        const handle = window.requestIdleCallback(wantToasts, { timeout: toastsIdleTimeoutMs });
        cancelIdle = () => window.cancelIdleCallback(handle);
      } else {
        const handle = window.setTimeout(wantToasts, toastsIdleTimeoutMs);
        cancelIdle = () => window.clearTimeout(handle);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    const interactions = ['pointerdown', 'keydown'] as const;
    for (const name of interactions) window.addEventListener(name, wantToasts, { capture: true });
    return () => {
      cancelIdle();
      window.removeEventListener('load', whenIdle);
      for (const name of interactions)
        window.removeEventListener(name, wantToasts, { capture: true });
    };
  }, [wanted]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}

/** The window events of `modals` (@mantine/modals events.mjs), prefixed `mantine-modals:`. */
const modalEvents = [
  'openModal',
  'openConfirmModal',
  'openContextModal',
  'closeModal',
  'closeAllModals',
  'updateModal',
  'updateContextModal',
].map((name) => `mantine-modals:${name}`);

const ModalsProvider = lazy(() =>
  import('./modals-provider').then((module) => ({ default: module.ModalsProvider })),
);

interface Capture {
  /** The calls made before the provider listened. */
  events: CustomEvent[];
  /** Stops keeping calls (the provider listens now). */
  stop: () => void;
}

/** Sends the calls that came before the provider listened, once it listens. */
function Replay({ capture }: { capture: { current: Capture | null } }) {
  // A passive effect: it runs after the provider's layout effects have added its listeners.
  useEffect(() => {
    if (!capture.current) return;
    capture.current.stop();
    for (const event of capture.current.events.splice(0)) {
      window.dispatchEvent(new CustomEvent(event.type, { detail: event.detail as unknown }));
    }
  }, [capture]);
  return null;
}

/**
 * The dialogs of `modals.open` / `modals.openConfirmModal`: the provider loads with the first
 * call, which is kept and sent again once it listens. It renders beside the page, not around it:
 * nothing in the site reads its context (`useModals`), only its window events.
 */
export function DeferredModals() {
  const capture = useRef<Capture | null>(null);
  const [wanted, setWanted] = useState(false);

  useLayoutEffect(() => {
    const events: CustomEvent[] = [];
    const keep = (event: Event) => {
      events.push(event as CustomEvent);
      setWanted(true);
    };
    const stop = () => {
      for (const name of modalEvents) window.removeEventListener(name, keep);
    };
    for (const name of modalEvents) window.addEventListener(name, keep);
    capture.current = { events, stop };
    return stop;
  }, []);

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ModalsProvider>
        <Replay capture={capture} />
      </ModalsProvider>
    </Suspense>
  );
}
