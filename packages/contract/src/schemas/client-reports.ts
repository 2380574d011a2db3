import { z } from 'zod';
import {
  clientErrorSources,
  clientReportLimits,
  webVitalNames,
  webVitalRatings,
} from '../client-reports.js';

/*
 * spec 1 §8: "An error-reporting service is wired in with an instrumentation key; web-vitals
 * reporting is included." The site posts its uncaught errors and its Core Web Vitals to
 * POST /api/v0/client-reports. The call needs no sign-in (an error may come before it), so every
 * field is bounded and every label the server counts by is an enum.
 */

/** The page's path, without its query (which may carry a sign-in code or a payer's details). */
const pagePath = z
  .string()
  .max(clientReportLimits.path)
  .regex(/^\/[^?#]*$/, 'A path starting with /.');

export const clientErrorReport = z.object({
  type: z.literal('error'),
  source: z.enum(clientErrorSources),
  message: z.string().max(clientReportLimits.message),
  stack: z.string().max(clientReportLimits.stack).optional(),
  path: pagePath,
});
export type ClientErrorReport = z.infer<typeof clientErrorReport>;

export const webVitalReport = z.object({
  type: z.literal('web-vital'),
  name: z.enum(webVitalNames),
  /** Milliseconds, or the unitless layout shift score for CLS. */
  value: z.number().min(0).max(600_000),
  rating: z.enum(webVitalRatings),
  path: pagePath,
});
export type WebVitalReport = z.infer<typeof webVitalReport>;

export const clientReport = z.discriminatedUnion('type', [clientErrorReport, webVitalReport]);
export type ClientReport = z.infer<typeof clientReport>;

export const clientReportsBody = z
  .object({ reports: z.array(clientReport).min(1).max(clientReportLimits.reports) })
  .meta({ id: 'ClientReports' });
export type ClientReportsBody = z.infer<typeof clientReportsBody>;
