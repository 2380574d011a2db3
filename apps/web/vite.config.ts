import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
        const match = /^\/pay\/[^/?]+\/?(\?.*)?$/.exec(request.url ?? '');
        if (match) request.url = `/pay.html${match[1] ?? ''}`;
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), payPageInDev()],
  // `@/` imports cross the top-level folders of src (app, shell, auth, lib, ui, features).
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/check-bundle-size.mjs reads it to size the first load.
    manifest: true,
    rolldownOptions: {
      // Two pages: the admin site (index.html) and the payer page (pay.html, served at /pay/{id}),
      // which shares none of the admin's libraries (docs/decisions.md "The payer page's bundle").
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
            // Apart from React, so the payer page (which has no router) does not fetch it.
            {
              name: 'router',
              test: /node_modules[\\/]react-router[\\/]/,
            },
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
