import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * The payer page's document (issue 14): `GET /pay/{id}` answers the built `pay.html` for any id;
 * the page asks `/api/v0/pay/{id}` what to show, and an id that does not exist looks expired
 * there, so this route never reveals whether an id exists.
 *
 * Its security headers differ from the admin site's: nothing may frame a page that takes money,
 * the link (which carries the request id) is never sent as a Referer, and the page loads nothing
 * from other hosts, except on the one load that shows the OPPWA COPYandPAY widget
 * (`?checkout={paymentId}`), which allows the configured OPPWA hosts, and the one that shows
 * the TranSafe PaymentFrame (`?frame={paymentId}`), which may frame the configured TranSafe hosts
 * and nothing else. Stripe, TrueLayer and GoCardless are redirects and need nothing; the hosted
 * forms the page POSTs to (Opayo) are allowed as form targets.
 */

/** The origins of the providers' hosts the page may reach, from the configured base URLs. */
export interface PayPageHosts {
  /** OPPWA COPYandPAY: widget script, its styles, images, frames and calls. */
  oppwa: string[];
  /** Hosted card forms the page POSTs the payer to (`next.kind = 'post'`). */
  hostedForms: string[];
  /** TranSafe PaymentFrame hosts, framed on the frame's load only. */
  tranSafe: string[];
}

const originOf = (url: string) => new URL(url).origin;
const unique = (values: string[]) => [...new Set(values)];

export function payPageHosts(config: Config): PayPageHosts {
  return {
    oppwa: unique([config.OPPWA_TEST_URL, config.OPPWA_LIVE_URL].map(originOf)),
    hostedForms: unique([config.OPAYO_TEST_URL, config.OPAYO_LIVE_URL].map(originOf)),
    tranSafe: unique([config.TRANSAFE_TEST_URL, config.TRANSAFE_LIVE_URL].map(originOf)),
  };
}

/**
 * The Content-Security-Policy of one load of the page. `widget`: the OPPWA widget's load, which
 * also lets the card issuer's 3-D Secure pages (any https host) frame and receive forms, as the
 * widget's challenge flow needs; its script uses eval and inline styles (ACI's own guidance).
 */
export function payPageSecurityPolicy(
  hosts: PayPageHosts,
  widget: boolean,
  tranSafeFrame = false,
): string {
  const oppwa = widget ? hosts.oppwa : [];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...oppwa, ...(widget ? ["'unsafe-eval'"] : [])],
    'style-src': ["'self'", ...oppwa, ...(widget ? ["'unsafe-inline'"] : [])],
    'img-src': ["'self'", 'data:', ...oppwa],
    'font-src': ["'self'", ...oppwa],
    'connect-src': ["'self'", ...oppwa],
    'frame-src': widget ? [...oppwa, 'https:'] : tranSafeFrame ? hosts.tranSafe : ["'none'"],
    'form-action': ["'self'", ...hosts.hostedForms, ...(widget ? [...oppwa, 'https:'] : [])],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

export function registerPayPage(app: FastifyInstance, hosts: PayPageHosts): void {
  const policies = {
    page: payPageSecurityPolicy(hosts, false),
    widget: payPageSecurityPolicy(hosts, true),
    tranSafeFrame: payPageSecurityPolicy(hosts, false, true),
  };
  app.get<{ Params: { id: string }; Querystring: { checkout?: string; frame?: string } }>(
    '/pay/:id',
    { config: { access: 'none' }, schema: { hide: true } },
    async (request, reply) => {
      const widget = typeof request.query.checkout === 'string';
      const frame = typeof request.query.frame === 'string';
      const policy = widget ? policies.widget : frame ? policies.tranSafeFrame : policies.page;
      return reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', policy)
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex, nofollow')
        .sendFile('pay.html');
    },
  );
}
