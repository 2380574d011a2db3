/*
 * The client reports' limits, names and ratings without zod: the site's first
 * load reads them and must not carry zod (docs/architecture.md "Site"). Their schemas:
 * schemas/client-reports.ts.
 */

export const clientReportLimits = {
  /** Reports in one call: a page sends its vitals together when it is hidden. */
  reports: 10,
  message: 1000,
  stack: 8000,
  path: 500,
  /** Bytes of one call's body. */
  body: 32 * 1024,
} as const;

export const webVitalNames = ['LCP', 'CLS', 'INP', 'FCP', 'TTFB'] as const;
export type WebVitalName = (typeof webVitalNames)[number];
export const webVitalRatings = ['good', 'needs-improvement', 'poor'] as const;
export type WebVitalRating = (typeof webVitalRatings)[number];
export const clientErrorSources = ['error', 'unhandledrejection', 'react'] as const;
export type ClientErrorSource = (typeof clientErrorSources)[number];

/**
 * Core Web Vitals thresholds (web.dev): at or below the first is good, above the second poor.
 * The site rates its own measurements with them.
 */
export const webVitalThresholds: Record<WebVitalName, readonly [number, number]> = {
  LCP: [2500, 4000],
  CLS: [0.1, 0.25],
  INP: [200, 500],
  FCP: [1800, 3000],
  TTFB: [800, 1800],
};

export function rateWebVital(name: WebVitalName, value: number): WebVitalRating {
  const [good, poor] = webVitalThresholds[name];
  return value <= good ? 'good' : value <= poor ? 'needs-improvement' : 'poor';
}
