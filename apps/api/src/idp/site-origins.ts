import type { Config } from '../config.js';

/** The site's own origin and the configured extra ones (e.g. the Vite dev server). */
export function siteOrigins(config: Config): string[] {
  const extra = config.OIDC_EXTRA_ORIGINS.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => new URL(origin).origin);
  return [...new Set([new URL(config.publicUrl).origin, ...extra])];
}

/**
 * Where a set-password link may send the user afterwards: an address on one of the site's
 * origins, anything else (another host, `//host`, `javascript:`) becomes the site's home page.
 */
export function safeRedirect(raw: string | undefined, config: Config): string {
  const fallback = `${config.publicUrl}/`;
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw, fallback);
  } catch {
    return fallback;
  }
  return siteOrigins(config).includes(url.origin) ? url.href : fallback;
}
