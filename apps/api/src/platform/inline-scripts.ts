import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

/**
 * The CSP sources ('sha256-…') of a built page's inline scripts, read once at start (the boot
 * script, apps/web/boot.js, is written into index.html and pay.html by the build
 * so that it runs as the page is read, without a request of its own). Only plain `<script>` tags
 * count; the policy keeps every other script to 'self'. None when the page is not there.
 */
export function inlineScriptSources(file: string): string[] {
  if (!existsSync(file)) return [];
  const html = readFileSync(file, 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
  );
}
