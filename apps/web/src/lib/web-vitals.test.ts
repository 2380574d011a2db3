import { describe, expect, it } from 'vitest';
import { measureWebVitals, type PerformanceEntryLike, type WebVital } from './web-vitals';

/** The browser's buffered observers, fed by hand. */
function fakeBrowser(
  supported = [
    'navigation',
    'paint',
    'largest-contentful-paint',
    'layout-shift',
    'event',
    'first-input',
  ],
) {
  const listeners = new Map<string, (entries: PerformanceEntryLike[]) => void>();
  return {
    observe: (type: string, onEntries: (entries: PerformanceEntryLike[]) => void) => {
      if (!supported.includes(type)) return false;
      listeners.set(type, onEntries);
      return true;
    },
    emit: (type: string, entries: PerformanceEntryLike[]) => listeners.get(type)?.(entries),
  };
}

function measure(browser = fakeBrowser()) {
  const vitals: WebVital[] = [];
  const meter = measureWebVitals((vital) => vitals.push(vital), browser.observe);
  return { browser, vitals, meter };
}

describe('measureWebVitals', () => {
  it('answers TTFB and FCP as soon as the browser has them', () => {
    const { browser, vitals } = measure();
    browser.emit('navigation', [{ startTime: 0, responseStart: 420 }]);
    browser.emit('paint', [
      { name: 'first-paint', startTime: 900 },
      { name: 'first-contentful-paint', startTime: 2100 },
    ]);
    expect(vitals).toEqual([
      { name: 'TTFB', value: 420, rating: 'good' },
      { name: 'FCP', value: 2100, rating: 'needs-improvement' },
    ]);
  });

  it('takes the last LCP candidate before the first input, when the page is hidden', () => {
    const { browser, vitals, meter } = measure();
    browser.emit('largest-contentful-paint', [{ startTime: 800 }, { startTime: 1500 }]);
    browser.emit('first-input', [{ startTime: 2000, duration: 8, interactionId: 0 }]);
    browser.emit('largest-contentful-paint', [{ startTime: 4500 }]);
    meter.finish();
    expect(vitals).toContainEqual({ name: 'LCP', value: 1500, rating: 'good' });
  });

  it('sums layout shifts in session windows, skips shifts after input, keeps the largest window', () => {
    const { browser, vitals, meter } = measure();
    browser.emit('layout-shift', [
      { startTime: 100, value: 0.05 },
      { startTime: 600, value: 0.05 },
      { startTime: 700, value: 0.5, hadRecentInput: true },
      // A gap of more than a second: a new window.
      { startTime: 3000, value: 0.2 },
      { startTime: 3500, value: 0.1 },
    ]);
    meter.finish();
    expect(vitals).toEqual([{ name: 'CLS', value: expect.closeTo(0.3, 5), rating: 'poor' }]);
  });

  it('rates the slowest interaction as INP, its longest event counting', () => {
    const { browser, vitals, meter } = measure();
    browser.emit('event', [
      { startTime: 10, duration: 80, interactionId: 1 },
      { startTime: 12, duration: 240, interactionId: 1 },
      { startTime: 500, duration: 120, interactionId: 2 },
      // Hover and scroll events carry no interaction.
      { startTime: 600, duration: 900, interactionId: 0 },
    ]);
    meter.finish();
    expect(vitals).toEqual([{ name: 'INP', value: 240, rating: 'needs-improvement' }]);
  });

  it('forgives one slow interaction in 50', () => {
    const { browser, vitals, meter } = measure();
    const entries = Array.from({ length: 60 }, (_, index) => ({
      startTime: index * 100,
      duration: index === 7 ? 2000 : 100,
      interactionId: index + 1,
    }));
    browser.emit('event', entries);
    meter.finish();
    expect(vitals).toEqual([{ name: 'INP', value: 100, rating: 'good' }]);
  });

  it('reports LCP, CLS and INP once per page, and nothing the browser cannot measure', () => {
    const { browser, vitals, meter } = measure(fakeBrowser(['paint']));
    browser.emit('largest-contentful-paint', [{ startTime: 800 }]);
    meter.finish();
    meter.finish();
    expect(vitals).toEqual([]);
  });
});
