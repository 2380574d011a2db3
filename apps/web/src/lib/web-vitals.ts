import { rateWebVital, type WebVitalName, type WebVitalRating } from '@ledgerline/contract';

/*
 * Core Web Vitals measured with the browser's PerformanceObserver, the way the `web-vitals`
 * library measures them (that package is not among the site's dependencies): LCP the last
 * largest-contentful-paint before the first input; CLS the largest session window of layout
 * shifts without recent input (gaps under 1 s, windows up to 5 s); INP the slowest interaction
 * (the 98th percentile once there are 50 or more), FCP and TTFB from paint and navigation timing.
 */

export interface WebVital {
  name: WebVitalName;
  value: number;
  rating: WebVitalRating;
}

/** The part of a performance entry each metric reads (the browser's entries have these fields). */
export interface PerformanceEntryLike {
  name?: string;
  entryType?: string;
  startTime: number;
  duration?: number;
  value?: number;
  hadRecentInput?: boolean;
  interactionId?: number;
  responseStart?: number;
}

/** Subscribes to one entry type, buffered; answers false when the browser does not have it. */
export type ObserveEntries = (
  type: string,
  onEntries: (entries: PerformanceEntryLike[]) => void,
) => boolean;

export const observeWithPerformanceObserver: ObserveEntries = (type, onEntries) => {
  if (typeof PerformanceObserver === 'undefined') return false;
  if (!PerformanceObserver.supportedEntryTypes?.includes(type)) return false;
  const observer = new PerformanceObserver((list) =>
    onEntries(list.getEntries() as unknown as PerformanceEntryLike[]),
  );
  // durationThreshold: interactions from 16 ms (the default 104 ms would miss most of them).
  observer.observe({ type, buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
  return true;
};

const vital = (name: WebVitalName, value: number): WebVital => ({
  name,
  value,
  rating: rateWebVital(name, value),
});

/**
 * Starts measuring. `onVital` gets FCP and TTFB as soon as they are known, and LCP, CLS and INP
 * from `finish()`, which the caller invokes when the page is first hidden.
 */
export function measureWebVitals(
  onVital: (vital: WebVital) => void,
  observe: ObserveEntries = observeWithPerformanceObserver,
) {
  let lcp: number | null = null;
  let lcpFinal = false;
  let cls = 0;
  let clsSeen = false;
  let session = { value: 0, first: 0, last: 0 };
  const interactions = new Map<number, number>();

  observe('navigation', (entries) => {
    const navigation = entries[0];
    if (navigation?.responseStart !== undefined && navigation.responseStart > 0) {
      onVital(vital('TTFB', navigation.responseStart));
    }
  });
  observe('paint', (entries) => {
    const fcp = entries.find((entry) => entry.name === 'first-contentful-paint');
    if (fcp) onVital(vital('FCP', fcp.startTime));
  });
  observe('largest-contentful-paint', (entries) => {
    if (lcpFinal) return;
    const last = entries[entries.length - 1];
    if (last) lcp = last.startTime;
  });
  observe('layout-shift', (entries) => {
    clsSeen = true;
    for (const shift of entries) {
      if (shift.hadRecentInput) continue;
      const startsNewWindow =
        session.value === 0 ||
        shift.startTime - session.last >= 1000 ||
        shift.startTime - session.first >= 5000;
      session = startsNewWindow
        ? { value: shift.value ?? 0, first: shift.startTime, last: shift.startTime }
        : { ...session, value: session.value + (shift.value ?? 0), last: shift.startTime };
      cls = Math.max(cls, session.value);
    }
  });
  const onInteraction = (entries: PerformanceEntryLike[]) => {
    for (const entry of entries) {
      // A user input ends LCP: later paints are the page answering, not loading.
      lcpFinal = true;
      if (!entry.interactionId) continue;
      const longest = interactions.get(entry.interactionId) ?? 0;
      interactions.set(entry.interactionId, Math.max(longest, entry.duration ?? 0));
    }
  };
  observe('event', onInteraction);
  observe('first-input', onInteraction);

  let finished = false;
  return {
    /** Once per page load: the values as they stand when the page is first hidden. */
    finish() {
      if (finished) return;
      finished = true;
      if (lcp !== null) onVital(vital('LCP', lcp));
      if (clsSeen) onVital(vital('CLS', cls));
      if (interactions.size > 0) {
        const slowest = [...interactions.values()].sort((a, b) => b - a);
        // One slow outlier per 50 interactions is forgiven (the 98th percentile).
        const index = Math.min(Math.floor(interactions.size / 50), slowest.length - 1);
        onVital(vital('INP', slowest[index]!));
      }
    },
  };
}
