/**
 * Focus goes back where it came from when a dialog closes (WCAG 2.4.3).
 *
 * Mantine's Modal returns the focus only when its `opened` changes from false to true while it
 * is mounted: a dialog mounted already open (`{editing && <Dialog opened …/>}`, a lazily loaded
 * one, the first `modals.open`) never saw its opener, and Escape left the focus on <body>, the
 * top of the page. So the site watches the whole document instead: it remembers the elements
 * that had the focus and, when a dialog leaves the page with the focus in it, gives the focus to
 * the last of them still on the page: the button that opened the dialog, or the menu button
 * whose item did.
 */

const dialogSelector = '[role="dialog"], [role="alertdialog"]';
/** Enough to step back over a menu item and a few fields of the dialog. */
const remembered = 30;

function containsDialog(node: Node): boolean {
  return (
    node instanceof Element &&
    (node.matches(dialogSelector) || !!node.querySelector(dialogSelector))
  );
}

function canTakeFocus(element: HTMLElement): boolean {
  return (
    element.isConnected &&
    !element.closest('[inert], [aria-hidden="true"]') &&
    !(element as HTMLButtonElement).disabled &&
    element.getClientRects().length > 0
  );
}

/** jsdom lays nothing out: there an element on the page counts as visible. */
function isLaidOut(): boolean {
  return !navigator.userAgent.includes('jsdom');
}

/** Starts watching; answers the function that stops. */
export function installFocusReturn(doc: Document = document): () => void {
  const history: HTMLElement[] = [];
  const checkLayout = isLaidOut();

  const remember = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || target === doc.body) return;
    const known = history.indexOf(target);
    if (known !== -1) history.splice(known, 1);
    history.push(target);
    if (history.length > remembered) history.shift();
  };

  const focusIsLost = () => !doc.activeElement || doc.activeElement === doc.body;

  const giveFocusBack = () => {
    if (!focusIsLost()) return;
    for (let at = history.length - 1; at >= 0; at -= 1) {
      const candidate = history[at]!;
      if (!candidate.isConnected) continue;
      if (checkLayout ? !canTakeFocus(candidate) : candidate.closest('[inert]')) continue;
      candidate.focus({ preventScroll: true });
      if (doc.activeElement === candidate) return;
    }
  };

  const observer = new MutationObserver((records) => {
    const dialogLeft = records.some((record) => [...record.removedNodes].some(containsDialog));
    if (dialogLeft) giveFocusBack();
  });

  doc.addEventListener('focusin', remember, true);
  observer.observe(doc.body, { childList: true, subtree: true });
  return () => {
    doc.removeEventListener('focusin', remember, true);
    observer.disconnect();
  };
}
