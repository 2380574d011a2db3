import { assignLocation } from './browser-location';
import { getWebsiteView } from './embedded-view';

/** The message a parent receives instead of a navigation of its frame (allowParentRedirects). */
export const parentRedirectMessageType = 'ledgerline:redirect';

/**
 * A navigation away from the site (a provider's authorisation page). In a frame whose parent
 * allows it, the parent is asked to go there (its own origin only receives the message);
 * otherwise the page goes itself (spec 3 §4 "Card account connection").
 */
export function navigateAway(url: string): void {
  const view = getWebsiteView();
  if (view?.allowParentRedirects) {
    window.parent.postMessage(
      { type: parentRedirectMessageType, url },
      new URL(view.parentUrl).origin,
    );
    return;
  }
  assignLocation(url);
}
