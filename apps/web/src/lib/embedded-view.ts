import { isEmbedded } from './session';
import { session, storageKeys } from './storage';

/** spec 3 §2 embedded view settings, kept in browser storage under one key. */
export interface WebsiteViewSettings {
  allowParentRedirects: boolean;
  removeMenu: boolean;
  removeHeader: boolean;
  removeTitle: boolean;
  parentUrl: string;
}

/** spec 3 §5. */
export const parentUrlMissing = 'Parent url is not defined';

const flag = (query: URLSearchParams, name: string) => query.get(name) === 'true';

function parentUrlOf(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Reads limitview and parenturl (and the four switches) from the address. Outside a frame the
 * embedded view does not apply (spec 3 §2) and nothing is read. A limitview without a usable
 * parent url is the spec's error; the settings of an earlier address stay until a new one comes.
 */
export function startEmbeddedView(search: string): { error: string | null } {
  if (!isEmbedded()) return { error: null };
  const query = new URLSearchParams(search);
  if (!query.has('limitview')) return { error: null };
  const parentUrl = parentUrlOf(query.get('parenturl'));
  if (!parentUrl) return { error: parentUrlMissing };
  const settings: WebsiteViewSettings = {
    allowParentRedirects: flag(query, 'allowParentRedirects'),
    removeMenu: flag(query, 'removeMenu'),
    removeHeader: flag(query, 'removeHeader'),
    removeTitle: flag(query, 'removeTitle'),
    parentUrl,
  };
  session.set(storageKeys.websiteView, JSON.stringify(settings));
  return { error: null };
}

/** The limited view's settings while the site runs in a frame, else null. */
export function getWebsiteView(): WebsiteViewSettings | null {
  if (!isEmbedded()) return null;
  const stored = session.get(storageKeys.websiteView);
  if (!stored) return null;
  try {
    return JSON.parse(stored) as WebsiteViewSettings;
  } catch {
    return null;
  }
}
