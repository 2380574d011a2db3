import {
  clientReportLimits,
  type ClientErrorSource,
  type ClientReport,
  type ClientReportsBody,
} from '@ledgerline/contract';
import { measureWebVitals, type ObserveEntries } from './web-vitals';

/*
 * spec 1 §8: "An error-reporting service is wired in with an instrumentation key; web-vitals
 * reporting is included." The site reports its uncaught errors (window error, unhandled promise
 * rejections, the router's error boundary) and its Core Web Vitals to POST /api/v0/client-reports;
 * the server logs and counts them and may forward them to a collector, whose key stays on the
 * server. Reports are held until GET info/site says whether this installation wants them.
 */

const endpoint = '/api/v0/client-reports';
/** Errors one page load reports at most: a render loop must not flood the intake. */
const maxErrorsPerPage = 20;
const flushDelayMs = 2000;

export interface ClientReporterOptions {
  /** How a batch leaves: sendBeacon where there is one (it survives the page closing), else fetch. */
  send?: (body: ClientReportsBody) => void;
  observe?: ObserveEntries;
  target?: Window;
}

function sendWithBeacon(body: ClientReportsBody) {
  const json = JSON.stringify(body);
  const beacon = typeof navigator !== 'undefined' ? navigator.sendBeacon?.bind(navigator) : null;
  if (beacon?.(endpoint, new Blob([json], { type: 'application/json' }))) return;
  void fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: json,
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => undefined);
}

/** The page's path only: a query may carry a sign-in code or a payer's details. */
function currentPath(target: Window) {
  return (target.location.pathname || '/').slice(0, clientReportLimits.path);
}

function describe(reason: unknown): { message: string; stack?: string } {
  if (reason instanceof Error) {
    return {
      message: (reason.message || reason.name).slice(0, clientReportLimits.message),
      stack: reason.stack?.slice(0, clientReportLimits.stack),
    };
  }
  let message: string;
  try {
    message = typeof reason === 'string' ? reason : JSON.stringify(reason);
  } catch {
    message = String(reason);
  }
  return { message: (message ?? String(reason)).slice(0, clientReportLimits.message) };
}

export function createClientReporter(options: ClientReporterOptions = {}) {
  const target = options.target ?? window;
  const send = options.send ?? sendWithBeacon;
  let enabled: boolean | null = null;
  let queue: ClientReport[] = [];
  let errorsReported = 0;
  const seen = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (enabled !== true) return;
    while (queue.length > 0) {
      send({ reports: queue.slice(0, clientReportLimits.reports) });
      queue = queue.slice(clientReportLimits.reports);
    }
  }

  function enqueue(report: ClientReport) {
    if (enabled === false) return;
    queue.push(report);
    if (enabled && !timer) timer = setTimeout(flush, flushDelayMs);
  }

  function reportError(source: ClientErrorSource, reason: unknown) {
    const { message, stack } = describe(reason);
    const key = `${source}:${message}`;
    // The same error again (a re-render, a retry) says nothing new.
    if (seen.has(key) || errorsReported >= maxErrorsPerPage) return;
    seen.add(key);
    errorsReported++;
    enqueue({ type: 'error', source, message, stack, path: currentPath(target) });
  }

  const onError = (event: ErrorEvent) => reportError('error', event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) =>
    reportError('unhandledrejection', event.reason);
  const vitals = measureWebVitals(
    (vital) => enqueue({ type: 'web-vital', ...vital, path: currentPath(target) }),
    options.observe,
  );
  const onPageHide = () => {
    vitals.finish();
    flush();
  };
  const onVisibilityChange = () => {
    if (target.document.visibilityState === 'hidden') onPageHide();
  };

  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  target.document.addEventListener('visibilitychange', onVisibilityChange);
  target.addEventListener('pagehide', onPageHide);

  function stop() {
    if (timer) clearTimeout(timer);
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
    target.document.removeEventListener('visibilitychange', onVisibilityChange);
    target.removeEventListener('pagehide', onPageHide);
  }

  return {
    reportError,
    /** GET info/site's `clientReports`: true sends what waited; false drops it and stops. */
    setEnabled(value: boolean) {
      enabled = value;
      if (value) return flush();
      queue = [];
      stop();
    },
    flush,
    stop,
  };
}
export type ClientReporter = ReturnType<typeof createClientReporter>;

let active: ClientReporter | null = null;

/** The app's one reporter, started before the first render so that early errors are kept. */
export function startClientReports(options?: ClientReporterOptions): ClientReporter {
  active?.stop();
  active = createClientReporter(options);
  return active;
}

/** What the router's error boundary caught (shell/error-page.tsx). */
export function reportRenderError(error: unknown) {
  active?.reportError('react', error);
}
