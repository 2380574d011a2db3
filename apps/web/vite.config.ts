import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';

const apiServer = 'http://localhost:3000';

/** Files worth compressing: text, and larger than a network packet. */
const compressible = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const minimumBytes = 1024;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, at the highest levels
 * (once per build, not per request); the server sends them to clients that accept them
 * (@fastify/static preCompressed, apps/api/src/app.ts).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'ledgerline-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!compressible.test(file) || statSync(file).size < minimumBytes) continue;
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
      }
    },
  };
}

/** `npm run dev`: /pay/{id} opens the payer page's entry, as the API server does in production. */
function payPageInDev(): Plugin {
  return {
    name: 'ledgerline-pay-page-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const match = /^\/(?:pay|statement)\/[^/?]+\/?(\?.*)?$/.exec(request.url ?? '');
        if (match) request.url = `/pay.html${match[1] ?? ''}`;
        next();
      });
    },
  };
}

/**
 * Mantine's AppShell header, footer and aside import `react-remove-scroll` only to read two class
 * names; in the build they get src/lib/remove-scroll-class-names.ts instead, so that the library's
 * scroll lock (7 KB gzipped) is not part of the first load (docs/decisions/085-first-load-under-170-kb.md "First load under
 * 170 KB"). Every other importer (Modal, Drawer) gets the library.
 */
function appShellScrollClassNames(): Plugin {
  const shim = fileURLToPath(new URL('./src/lib/remove-scroll-class-names.ts', import.meta.url));
  return {
    name: 'ledgerline-app-shell-scroll-class-names',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'react-remove-scroll' || !importer) return null;
      return /[\\/]@mantine[\\/]core[\\/].*[\\/]AppShell[\\/]/.test(importer) ? shim : null;
    },
  };
}

const bootSource = fileURLToPath(new URL('./boot.js', import.meta.url));
const routesFile = fileURLToPath(new URL('./src/app/routes.tsx', import.meta.url));
const srcFolder = fileURLToPath(new URL('./src/', import.meta.url));
const withoutExtension = (file: string) => file.replace(/\.(tsx?|jsx?)$/, '');
/**
 * Lazy parts a screen loads as soon as it renders, preloaded with it: the dashboard's money
 * figures (app/dashboard-panels.tsx), which would otherwise be asked for only once the
 * dashboard has loaded and run.
 */
const withTheirScreen = [join(srcFolder, 'features/dashboard/components/figures-panel')];
/** The same parts, by the name of the chunk `lazyParts` below puts them in. */
const withTheirScreenChunks = ['dashboard-figures'];

/** Each screen's path and the files it needs beyond the entry's, as indexes into `files`. */
function routeFiles(bundle: Rollup.OutputBundle) {
  const chunks = Object.values(bundle).filter(
    (output): output is Rollup.OutputChunk => output.type === 'chunk',
  );
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const byModule = new Map(
    chunks
      .filter((chunk) => chunk.facadeModuleId)
      .map((chunk) => [withoutExtension(chunk.facadeModuleId!), chunk]),
  );
  const closure = (file: string, seen = new Set<string>()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    const chunk = byFile.get(file);
    for (const css of chunk?.viteMetadata?.importedCss ?? []) seen.add(css);
    for (const imported of chunk?.imports ?? []) closure(imported, seen);
    return seen;
  };
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === 'index');
  if (!entry) throw new Error('boot.js: the build has no index entry.');
  const entryFiles = closure(entry.fileName);
  // `path: '/x'` and then its page's `import('...')`, comments left out.
  const routesText = readFileSync(routesFile, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const files: string[] = [];
  const routes: [string, number[]][] = [];
  for (const [, path, specifier] of routesText.matchAll(
    /path: '([^']+)'[\s\S]*?import\('([^']+)'\)/g,
  )) {
    const module = specifier!.startsWith('@/')
      ? join(srcFolder, specifier!.slice(2))
      : join(dirname(routesFile), specifier!);
    const page = byModule.get(withoutExtension(module));
    if (!page) throw new Error(`boot.js: no chunk for ${specifier} (${path}).`);
    const pageFiles = closure(page.fileName);
    for (const file of [...pageFiles])
      for (const lazy of byFile.get(file)?.dynamicImports ?? []) {
        const facade = byFile.get(lazy)?.facadeModuleId;
        const name = byFile.get(lazy)?.name;
        if (
          (facade && withTheirScreen.includes(withoutExtension(facade))) ||
          (name && withTheirScreenChunks.includes(name))
        )
          closure(lazy, pageFiles);
      }
    const needed = [...pageFiles].filter((file) => !entryFiles.has(file));
    for (const file of needed) if (!files.includes(file)) files.push(file);
    routes.push([path!, needed.map((file) => files.indexOf(file))]);
  }
  return { files, routes };
}

/**
 * apps/web/boot.js, written into index.html and pay.html in place of their
 * `<script async src="/boot.js">`, so that it runs as the page is read, without a request of its
 * own (the server allows it by its hash, apps/api/src/platform/inline-scripts.ts). Into the admin
 * site's copy the build writes, for each screen of src/app/routes.tsx, its path and the files its
 * page chunk loads that the entry does not (the chunk, its static imports and their CSS), so that
 * a first load fetches them beside the entry's own files instead of once the entry has run.
 */
function bootScript(): Plugin {
  const tag = '<script async src="/boot.js"></script>';
  const marker = '/*route-files*/ null';
  return {
    name: 'ledgerline-boot-script',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!html.includes(tag)) return html;
        const text = readFileSync(bootSource, 'utf8');
        if (!text.includes(marker)) throw new Error(`boot.js has no ${marker}.`);
        const files =
          context.bundle && /index\.html$/.test(context.filename)
            ? JSON.stringify(routeFiles(context.bundle))
            : 'null';
        // Its comments stay in the source: the page gets the code alone.
        const code = text
          .replace(marker, files)
          .split('\n')
          .filter((line) => !/^\s*(\/\/|\/\*.*\*\/\s*$)/.test(line))
          .map((line) => line.trim())
          .join('\n');
        return html.replace(tag, () => `<script>${code}</script>`);
      },
    },
  };
}

/**
 * The payer page (src/pay, apps/web/pay.html) runs on Preact through preact/compat, so
 * that its JavaScript is under 50 KB gzipped (React alone was 65.8 KB); the admin site keeps React
 * (docs/decisions/166-the-payer-page-runs-on-preact.md "The payer page runs on Preact"). Only the
 * page's own modules are pointed at Preact: one build, and nothing of the admin site's changes.
 */
const payPageSource = /[\\/]src[\\/]pay[\\/]/;
const preactInPlaceOfReact: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
};

function payPageOnPreact(): Plugin {
  return {
    name: 'ledgerline-pay-page-on-preact',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const target = preactInPlaceOfReact[source];
      if (!target || !importer || !payPageSource.test(importer)) return null;
      return this.resolve(target, importer, { ...options, skipSelf: true });
    },
  };
}

type ChunkingContext = {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
};

/** The site's own modules (apps/web/src) reached by static imports from `starts`. */
function siteModulesFrom(starts: string[], ctx: ChunkingContext, chunk: string) {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id) || !id.startsWith(srcFolder)) return;
    seen.add(id);
    for (const next of ctx.getModuleInfo(id)?.importedIds ?? []) visit(next);
  };
  for (const start of starts) {
    if (!ctx.getModuleInfo(start)) throw new Error(`${chunk} chunk: no module ${start}.`);
    visit(start);
  }
  return seen;
}

/**
 * Left to itself the build cut what the dashboard loads beyond the entry into
 * some twenty small files (each also used by other screens), and on a slow phone (Fast 3G: 560 ms
 * a request, six at a time over HTTP/1.1) the dashboard waited for them batch after batch. They
 * are one file now: the site's own modules (apps/web/src) the dashboard imports (statically, from
 * src/app/routes/dashboard.tsx; its money figures stay on demand), and the library parts named here (never a
 * library's index, which names every part of it). The build adds what those import; all of it is
 * the dashboard's anyway, so its first load (scripts/check-bundle-size.mjs) does not grow, and
 * other screens, which use most of it too, fetch the one file.
 */
const dashboardLibraryParts =
  /node_modules[\\/](@mantine[\\/]core[\\/]esm[\\/]components[\\/]Card[\\/]|@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]IconInfoCircle\.mjs)/;

function dashboardChunkName() {
  const starts = [fileURLToPath(new URL('./src/app/routes/dashboard.tsx', import.meta.url))];
  let ours: Set<string> | null = null;
  return (id: string, ctx: ChunkingContext) => {
    ours ??= siteModulesFrom(starts, ctx, 'dashboard');
    // The screen's own module stays the chunk its route loads.
    if (starts.includes(id)) return null;
    return ours.has(id) || dashboardLibraryParts.test(id) ? 'dashboard-deps' : null;
  };
}

/**
 * Beyond the dashboard: what a lazy part loads beyond the groups above, one file
 * for each part named here (the first that reaches a module has it), instead of the dozens of
 * small shared files the build cuts by itself, fetched six at a time on a slow phone. As for the
 * dashboard, a part is found by walking the site's own modules (apps/web/src) from its start, and
 * the build adds the library modules they import; the start is in the part's file, which its `import()`
 * loads (a screen's page excepted, which stays the chunk its route loads). The parts loaded on use
 * come first, smallest first, so that none fetches a larger one's code: the toast list (the first
 * error toast), the dashboard's money figures, the menus (pointed at), the dialogs provider (the
 * first dialog); then the payment requests list, whose file the other lists share (the data
 * grid, its filters, the inputs and dialogs of a list).
 */
interface LazyPart {
  name: string;
  starts: string[];
  keepStarts?: boolean;
}

const lazyParts: LazyPart[] = [
  { name: 'toasts', starts: ['ui/toasts.tsx'] },
  { name: 'dashboard-figures', starts: ['features/dashboard/components/figures-panel.tsx'] },
  {
    name: 'menus',
    starts: [
      'shell/user-menu-items.tsx',
      'shell/help-menu-items.tsx',
      'shell/company-switcher-items.tsx',
    ],
  },
  { name: 'dialogs', starts: ['app/modals-provider.ts'] },
  {
    name: 'list-deps',
    starts: ['features/payment-requests/components/payment-requests-page.tsx'],
    keepStarts: true,
  },
];

/** The chunk name of each module of a part of `lazyParts` (one group each, in their order). */
function lazyPartChunkName(part: LazyPart) {
  const starts = part.starts.map((start) => join(srcFolder, start));
  let ours: Set<string> | null = null;
  return (id: string, ctx: ChunkingContext) => {
    ours ??= siteModulesFrom(starts, ctx, part.name);
    // A screen's own module stays the chunk its route loads.
    if (part.keepStarts && starts.includes(id)) return null;
    return ours.has(id) ? part.name : null;
  };
}

export default defineConfig({
  plugins: [
    payPageOnPreact(),
    // React's fast refresh does not drive Preact: in `npm run dev` a change to the payer page
    // reloads it.
    react({ refreshExclude: [/[\\/]node_modules[\\/]/, payPageSource] }),
    precompress(),
    payPageInDev(),
    appShellScrollClassNames(),
    bootScript(),
  ],
  // `@/` imports cross the top-level folders of src (app, shell, auth, lib, ui, features).
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/check-bundle-size.mjs reads it to size the first load.
    manifest: true,
    // No modulepreload polyfill: every browser the build targets but Safari 16 has modulepreload,
    // and there the modules still load through their imports. Left in, the polyfill is a module
    // both pages share, which the first-load group below would put in the admin's entry file.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Two pages: the admin site (index.html) and the payer page (pay.html, served at /pay/{id}),
      // which shares none of the admin's libraries (docs/decisions/062-the-payer-page-s-bundle.md "The payer page's bundle").
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        pay: fileURLToPath(new URL('./pay.html', import.meta.url)),
      },
      output: {
        codeSplitting: {
          groups: [
            // React changes less often than our code: its own chunk stays cached across releases.
            // Other libraries are not grouped: a group is loaded whole by the first page that
            // needs any part of it, which put every screen's libraries in the first load.
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
            // The payer page's Preact (payPageOnPreact), cached apart from the page's own code.
            {
              name: 'preact',
              test: /node_modules[\\/]preact[\\/]/,
            },
            // Apart from React, so the payer page (which has no router) does not fetch it.
            {
              name: 'router',
              test: /node_modules[\\/]react-router[\\/]/,
            },
            // Everything else the admin's first screen imports statically, in one file: left to
            // itself the build cut it into some thirty small shared chunks (each one also used by
            // a lazy screen), each compressed on its own and fetched on its own. The payer page's
            // modules and the build's own helpers stay out: that page must not fetch this file.
            {
              name: 'first-load',
              tags: ['$initial'],
              test: (id: string) =>
                !id.startsWith('\0') && !/[\\/]src[\\/]pay[\\/]|pay\.html/.test(id),
            },
            {
              name: dashboardChunkName(),
              test: (id: string) =>
                !id.startsWith('\0') && !/[\\/]src[\\/]pay[\\/]|pay\.html/.test(id),
            },
            ...lazyParts.map((part) => ({
              name: lazyPartChunkName(part),
              test: (id: string) =>
                !id.startsWith('\0') && !/[\\/]src[\\/]pay[\\/]|pay\.html/.test(id),
            })),
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': apiServer,
      '/idp': apiServer,
      '/metrics': apiServer,
    },
  },
});
