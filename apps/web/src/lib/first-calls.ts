import { storageKeys } from './storage';

/**
 * The GETs the first screen of an address asks for, remembered for the next
 * first load of that address. apps/web/boot.js reads them and asks for them as the page is read,
 * beside the application's own files, instead of once the application has loaded, run and
 * rendered (on a slow phone, seconds later); `takeEarlyAnswer` (lib/http.ts) hands each answer
 * to the call that asks for it. Only addresses (no answers) are kept, for the last few paths, and
 * with the company they were asked for: boot.js asks for a company's calls only while the same
 * company is chosen. Recording stops at the first key press or pointer press, when the address
 * changes, or `recordForMs` after this code loaded: what a person does after the screen has come is not the first
 * screen's. An embedded view (spec 3 §2) keeps nothing, as boot.js leaves it alone.
 */
export const firstCallsKey = storageKeys.firstCalls;
/** Paths remembered, the most recent last. */
const maxPaths = 12;
/** Calls remembered for one path. */
const maxCalls = 16;
const recordForMs = 15_000;

interface Recording {
  path: string;
  company: number | null;
  calls: string[];
}

let recording: Recording | null = null;
/** When this code was loaded: the first screen's calls come within recordForMs of it. */
const loadedAt = typeof performance === 'undefined' ? 0 : performance.now();

function stop() {
  recording = null;
}

if (typeof window !== 'undefined' && window === window.parent) {
  recording = { path: window.location.pathname, company: null, calls: [] };
  window.addEventListener('keydown', stop, { once: true, capture: true });
  window.addEventListener('pointerdown', stop, { once: true, capture: true });
}

type Stored = Record<string, { company: number | null; calls: string[] }>;

function save(entry: Recording) {
  try {
    const stored = JSON.parse(window.localStorage.getItem(firstCallsKey) ?? '{}') as Stored;
    delete stored[entry.path];
    stored[entry.path] = { company: entry.company, calls: entry.calls };
    const paths = Object.keys(stored);
    for (const path of paths.slice(0, Math.max(0, paths.length - maxPaths))) delete stored[path];
    window.localStorage.setItem(firstCallsKey, JSON.stringify(stored));
  } catch {
    // No storage (or a damaged entry): the next first load simply asks later.
  }
}

/**
 * A plain GET (only the client's own headers) of the screen shown first: `company` is the
 * Dataset-Id it carries, null for a call without one.
 */
export function recordFirstCall(url: string, company: number | null) {
  const current = recording;
  if (!current) return;
  if (window.location.pathname !== current.path || performance.now() - loadedAt > recordForMs) {
    stop();
    return;
  }
  const entry = company === null ? `t ${url}` : `c ${url}`;
  if (current.calls.includes(entry) || current.calls.length >= maxCalls) return;
  if (company !== null) {
    // One company per first screen: a call for another (the company just changed) ends it.
    if (current.company !== null && current.company !== company) {
      stop();
      return;
    }
    current.company = company;
  }
  current.calls.push(entry);
  save(current);
}

/**
 * Queries the server's first screen filled (app/first-screen.ts), by hash, with when: a query
 * that otherwise asks again on every mount (the dashboard's to-do list) takes that answer as
 * fresh for a moment instead of asking at once for what the page has just brought.
 */
const seeded = new Map<string, number>();
const seededFreshMs = 5_000;

export function markSeeded(queryHash: string): void {
  seeded.set(queryHash, Date.now());
}

/** `refetchOnMount` of a query asked again on every mount: not for an answer the page just brought. */
export function refetchUnlessJustSeeded(query: { queryHash: string }): boolean | 'always' {
  const at = seeded.get(query.queryHash);
  return at !== undefined && Date.now() - at < seededFreshMs ? false : 'always';
}
