import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { uuidPattern, type PayPageAnswer } from '@ledgerline/contract';
import type { Config } from '../config.js';
import { hasFirstScreen, payDocumentWithFirstScreen } from './pay-page-first-screen.js';

/**
 * The payer page's document: `GET /pay/{id}` answers the built `pay.html` for any id;
 * the page asks `/api/v0/pay/{id}` what to show, and an id that does not exist looks expired
 * there, so this route never reveals whether an id exists.
 *
 * Its security headers differ from the admin site's: nothing may frame a page that takes money,
 * the link (which carries the request id) is never sent as a Referer, and the page loads nothing
 * from other hosts, except on the one load that shows the OPPWA COPYandPAY widget
 * (`?checkout={paymentId}`), which allows the configured OPPWA hosts, and the one that shows
 * the TranSafe PaymentFrame (`?frame={paymentId}`), which may frame the configured TranSafe hosts
 * and nothing else, and the one that shows the Opayo Pi drop-in (`?opayo={paymentId}`), which may
 * load Opayo.js and its frames and calls from the configured Opayo hosts, and POST the payer to
 * a card issuer's 3-D Secure page (any https host). Stripe, TrueLayer and GoCardless are
 * redirects and need nothing; the hosted forms the page POSTs to (Opayo) are allowed as form
 * targets.
 */

/** The origins of the providers' hosts the page may reach, from the configured base URLs. */
export interface PayPageHosts {
  /** OPPWA COPYandPAY: widget script, its styles, images, frames and calls. */
  oppwa: string[];
  /** Hosted card forms the page POSTs the payer to (`next.kind = 'post'`). */
  hostedForms: string[];
  /** TranSafe PaymentFrame hosts, framed on the frame's load only. */
  tranSafe: string[];
  /** Opayo Pi hosts: Opayo.js, its frames and its calls, on the drop-in's load only. */
  opayo: string[];
}

/** Which load of the page: plain, the OPPWA widget's, the TranSafe frame's, the Opayo drop-in's. */
export type PayPageLoad = 'page' | 'widget' | 'tranSafeFrame' | 'opayoPi';

const originOf = (url: string) => new URL(url).origin;
const unique = (values: string[]) => [...new Set(values)];

export function payPageHosts(config: Config): PayPageHosts {
  return {
    oppwa: unique([config.OPPWA_TEST_URL, config.OPPWA_LIVE_URL].map(originOf)),
    hostedForms: unique([config.OPAYO_TEST_URL, config.OPAYO_LIVE_URL].map(originOf)),
    tranSafe: unique([config.TRANSAFE_TEST_URL, config.TRANSAFE_LIVE_URL].map(originOf)),
    opayo: unique([config.OPAYO_TEST_URL, config.OPAYO_LIVE_URL].map(originOf)),
  };
}

/**
 * The Content-Security-Policy of one load of the page. `widget`: the OPPWA widget's load, which
 * also lets the card issuer's 3-D Secure pages (any https host) frame and receive forms, as the
 * widget's challenge flow needs; its script uses eval and inline styles (ACI's own guidance).
 */
export function payPageSecurityPolicy(
  hosts: PayPageHosts,
  load: PayPageLoad,
  /** The page's own inline scripts ('sha256-…'): the boot script. */
  inlineScripts: readonly string[] = [],
): string {
  const widget = load === 'widget';
  const opayoPi = load === 'opayoPi';
  // The hosts whose scripts, styles, images, fonts and calls this load may use.
  const loaded = widget ? hosts.oppwa : opayoPi ? hosts.opayo : [];
  const frames = widget
    ? [...hosts.oppwa, 'https:']
    : opayoPi
      ? hosts.opayo
      : load === 'tranSafeFrame'
        ? hosts.tranSafe
        : ["'none'"];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...inlineScripts, ...loaded, ...(widget ? ["'unsafe-eval'"] : [])],
    'style-src': ["'self'", ...loaded, ...(widget ? ["'unsafe-inline'"] : [])],
    'img-src': ["'self'", 'data:', ...loaded],
    'font-src': ["'self'", ...loaded],
    'connect-src': ["'self'", ...loaded],
    'frame-src': frames,
    // The OPPWA widget's and the Opayo drop-in's 3-D Secure: the issuer's page, any https host.
    'form-action': [
      "'self'",
      ...hosts.hostedForms,
      ...(widget ? [...hosts.oppwa, 'https:'] : opayoPi ? ['https:'] : []),
    ],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * The plain load of an open request's link carries what to pay in its HTML
 * (pay-page-first-screen.ts). Any other answer (an expired or unknown id, a paid, cancelled or
 * not yet open request) and any other load is the built pay.html as before, so the document still
 * never tells an unknown id from an expired one.
 */
export interface PayPageFirstScreen {
  /** The built pay.html's path. */
  document: string;
  /** The request's page as `/api/v0/pay/{id}` answers it (pay.service.ts `page`). */
  page: (requestId: string) => Promise<PayPageAnswer>;
  /** The payer calls' rate limit, per client address (the document reads what they read). */
  perMinute: number;
}

export function registerPayPage(
  app: FastifyInstance,
  hosts: PayPageHosts,
  inlineScripts: readonly string[] = [],
  firstScreen?: PayPageFirstScreen,
): void {
  let builtDocument: string | null = null;
  const documentText = () => (builtDocument ??= readFileSync(firstScreen!.document, 'utf8'));
  const loads: PayPageLoad[] = ['page', 'widget', 'tranSafeFrame', 'opayoPi'];
  const policies = Object.fromEntries(
    loads.map((load) => [load, payPageSecurityPolicy(hosts, load, inlineScripts)]),
  ) as Record<PayPageLoad, string>;
  app.get<{
    Params: { id: string };
    Querystring: { checkout?: string; frame?: string; opayo?: string };
  }>(
    '/pay/:id',
    {
      config: {
        access: 'none',
        ...(firstScreen
          ? { rateLimit: { max: firstScreen.perMinute, timeWindow: '1 minute' } }
          : {}),
      },
      schema: { hide: true },
    },
    async (request, reply) => {
      const { checkout, frame, opayo } = request.query;
      const policy =
        policies[
          typeof checkout === 'string'
            ? 'widget'
            : typeof frame === 'string'
              ? 'tranSafeFrame'
              : typeof opayo === 'string'
                ? 'opayoPi'
                : 'page'
        ];
      reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', policy)
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex, nofollow');
      // The payer's first screen: not a provider's return nor a widget's, frame's or drop-in's load
      // (pay-app.tsx firstStep); a link's other query (`?utm=mail`) changes nothing.
      const query = (request.query ?? {}) as Record<string, unknown>;
      const plainLoad = !['payment', 'checkout', 'frame', 'opayo'].some((key) => key in query);
      if (firstScreen && plainLoad && uuidPattern.test(request.params.id)) {
        let answer: PayPageAnswer | null = null;
        try {
          answer = await firstScreen.page(request.params.id);
        } catch (error) {
          // The page asks for itself, as it did before its first HTML carried the answer, and reports what it gets.
          request.log.warn({ err: error }, 'payer page: first screen not written');
        }
        if (answer && hasFirstScreen(answer))
          return reply
            .header('cache-control', 'no-store')
            .type('text/html; charset=utf-8')
            .send(payDocumentWithFirstScreen(documentText(), answer));
      }
      return reply.sendFile('pay.html');
    },
  );
  // An account's statement (`/statement/{token}`) is a page of the same entry; it only
  // lists invoices and sends the payer on to `/pay/{id}`, so the plain page's policy applies.
  app.get<{ Params: { token: string } }>(
    '/statement/:token',
    { config: { access: 'none' }, schema: { hide: true } },
    async (_request, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', policies.page)
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex, nofollow')
        .sendFile('pay.html'),
  );
}
