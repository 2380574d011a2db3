import type { ClientReportsBody } from '@ledgerline/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClientReporter, type ClientReporter } from './client-reports';
import type { PerformanceEntryLike } from './web-vitals';

let reporter: ClientReporter | null = null;
afterEach(() => {
  reporter?.stop();
  reporter = null;
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

function start() {
  const sent: ClientReportsBody[] = [];
  const lcp: ((entries: PerformanceEntryLike[]) => void)[] = [];
  reporter = createClientReporter({
    send: (body) => sent.push(body),
    observe: (type, onEntries) => {
      if (type === 'largest-contentful-paint') lcp.push(onEntries);
      return type === 'largest-contentful-paint';
    },
  });
  return { sent, reporter, paint: (startTime: number) => lcp[0]!([{ startTime }]) };
}

/** An uncaught error as the browser fires it; the test's own listener keeps Vitest from failing on it. */
function fireError(error: Error) {
  const swallow = (event: Event) => event.preventDefault();
  window.addEventListener('error', swallow, { once: true });
  window.dispatchEvent(
    new ErrorEvent('error', { error, message: error.message, cancelable: true }),
  );
}

function hidePage() {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
}

describe('client reports (spec 1 §8)', () => {
  it('reports an uncaught error with its stack and the page path, not its query', () => {
    window.history.replaceState(null, '', '/signin-callback?code=secret&state=1');
    const { sent, reporter } = start();
    const error = new TypeError("Cannot read properties of undefined (reading 'amount')");
    fireError(error);
    reporter.setEnabled(true);
    expect(sent).toEqual([
      {
        reports: [
          {
            type: 'error',
            source: 'error',
            message: "Cannot read properties of undefined (reading 'amount')",
            stack: expect.stringContaining('TypeError'),
            path: '/signin-callback',
          },
        ],
      },
    ]);
  });

  it('reports an unhandled rejection, once per message, and 20 errors a page at most', () => {
    vi.useFakeTimers();
    const { sent, reporter } = start();
    reporter.setEnabled(true);
    const rejection = (reason: unknown) =>
      window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }));
    rejection(new Error('The server could not be reached.'));
    rejection(new Error('The server could not be reached.'));
    rejection({ code: 42 });
    vi.advanceTimersByTime(2000);
    expect(sent.flatMap((body) => body.reports)).toEqual([
      expect.objectContaining({
        source: 'unhandledrejection',
        message: 'The server could not be reached.',
      }),
      expect.objectContaining({ source: 'unhandledrejection', message: '{"code":42}' }),
    ]);
    for (let index = 0; index < 40; index++) reporter.reportError('react', new Error(`E${index}`));
    vi.advanceTimersByTime(2000);
    const all = sent.flatMap((body) => body.reports);
    expect(all).toHaveLength(20);
    // In batches the server accepts (10 reports a call at most).
    expect(Math.max(...sent.map((body) => body.reports.length))).toBeLessThanOrEqual(10);
  });

  it('sends the web vitals when the page is hidden', () => {
    const { sent, reporter, paint } = start();
    reporter.setEnabled(true);
    paint(5200);
    hidePage();
    expect(sent).toEqual([
      { reports: [{ type: 'web-vital', name: 'LCP', value: 5200, rating: 'poor', path: '/' }] },
    ]);
  });

  it('sends nothing, and drops what waited, when the installation switched reports off', () => {
    const { sent, reporter, paint } = start();
    fireError(new Error('early'));
    reporter.setEnabled(false);
    fireError(new Error('late'));
    paint(1000);
    hidePage();
    expect(sent).toEqual([]);
  });

  it('bounds what it sends to the limits of the intake', () => {
    const { sent, reporter } = start();
    reporter.setEnabled(true);
    const long = new Error('m'.repeat(5000));
    long.stack = 's'.repeat(20_000);
    reporter.reportError('react', long);
    reporter.flush();
    const report = sent[0]!.reports[0] as { message: string; stack: string };
    expect(report.message).toHaveLength(1000);
    expect(report.stack).toHaveLength(8000);
  });
});
