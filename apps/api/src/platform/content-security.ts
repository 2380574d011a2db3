import type { Config } from '../config.js';
import { inlineScriptSources } from './inline-scripts.js';
import type { registerSecurityHeaders } from './security-headers.js';

type SecurityHeaderOptions = Parameters<typeof registerSecurityHeaders>[1];

/** The site's security headers: its Content-Security-Policy and framing, from the configuration. */
export function siteSecurityHeaders(
  config: Config,
  siteRoot: string | null,
): SecurityHeaderOptions {
  const issuerOrigin = new URL(config.oidcIssuer).origin;
  const extraOrigins = config.OIDC_EXTRA_ORIGINS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The site's own files, and the boot script written into index.html by the build.
        scriptSrc: ["'self'", ...(siteRoot ? inlineScriptSources(`${siteRoot}/index.html`) : [])],
        // Mantine sets CSS variables through style attributes and <style> elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", issuerOrigin],
        formAction: ["'self'", issuerOrigin, ...extraOrigins],
        // spec 3 §2 embedded view: only the parent sites an operator lists (FRAME_ANCESTORS).
        frameAncestors: ["'self'", ...config.frameAncestors],
        // The document viewer frames a PDF the site fetched as a blob: URL; the web hooks page
        // frames Svix's app portal when Svix's cloud delivers; the Funding page frames
        // Capitalise's funding search, that host alone.
        frameSrc: [
          "'self'",
          'blob:',
          ...(config.SVIX_TOKEN && !config.SVIX_SERVER_URL ? ['https://app.svix.com'] : []),
          ...(config.CAPITALISE_INTRODUCER_KEY ? [new URL(config.CAPITALISE_URL).origin] : []),
        ],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    // X-Frame-Options can name no other origin: with FRAME_ANCESTORS it is left out and the
    // CSP's frame-ancestors (which browsers prefer anyway) decides alone.
    frameguard: config.frameAncestors.length > 0 ? false : { action: 'sameorigin' },
    strictTransportSecurity: config.cookieSecure,
  };
}
