import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import type { Config } from '../config.js';
import { inlineScriptSources } from './inline-scripts.js';
import { payPageHosts, registerPayPage, type PayPageFirstScreen } from './pay-page-document.js';
import { problem, sendProblem } from './problems.js';
import { createSiteFirstScreen, encodeForClient } from './site-first-screen.js';

/**
 * Files under /assets/ carry a content hash in their names, so a browser keeps them for a year
 * without asking again; everything else (index.html, which names the current hashes, and the
 * favicon) is revalidated on every use.
 */
export function siteCacheControl(url: string): string {
  return url.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The built site (when webRoot holds one) and the answer to every path no route owns: the site's
 * index.html for a page, a 404 problem for the API. `payPage` reads an open request's first screen
 * into the payer page's HTML (pay-page-first-screen.ts).
 */
export async function registerSite(
  app: FastifyInstance,
  config: Config,
  webRoot: string | null,
  payPage?: PayPageFirstScreen['page'],
): Promise<void> {
  const serveSite = webRoot !== null && existsSync(`${webRoot}/index.html`);
  if (serveSite) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file (apps/web/vite.config.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply) => reply.header('cache-control', siteCacheControl(reply.request.url)),
    });
    // The payer page's own entry of the build (apps/web/pay.html), with its own headers.
    if (existsSync(`${webRoot}/pay.html`))
      registerPayPage(
        app,
        payPageHosts(config),
        inlineScriptSources(`${webRoot}/pay.html`),
        payPage && {
          document: `${webRoot}/pay.html`,
          page: payPage,
          perMinute: config.RATE_LIMIT_PAY_PER_MINUTE,
        },
      );
  }
  // The dashboard's and the payment requests list's first screen for a signed-in session
  // (site-first-screen.ts): never kept by a shared cache, and only for the cookie it was asked with.
  const firstScreen = serveSite
    ? createSiteFirstScreen(app, `${webRoot}/index.html`, config.cookieSecure)
    : null;
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = /^\/(api|idp|metrics)(\/|$)/.test(path);
    if (serveSite && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      const written = await firstScreen?.(request);
      if (written) {
        const { body, encoding } = encodeForClient(request, written);
        if (encoding) reply.header('content-encoding', encoding);
        return reply
          .header('cache-control', 'private, no-store')
          .header('vary', 'Cookie, Accept-Encoding')
          .type('text/html; charset=utf-8')
          .send(body);
      }
      // The site's own router owns every other path, including its /error/404 page.
      return reply.header('cache-control', siteCacheControl('/index.html')).sendFile('index.html');
    }
    return sendProblem(reply, {
      ...problem(404, `No route ${request.method} ${path}.`),
      instance: path,
    });
  });
}
