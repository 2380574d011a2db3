// First load on a slow phone: Largest Contentful Paint of the dashboard, a list
// (payment requests) and the payer page (/pay/{id}), each loaded cold (browser cache off) several
// times in Debian's Chromium under Chrome DevTools' "Fast 3G" network and a 4× slower CPU.
//
//   npm run build && npx tsx bench/lcp.ts
//   LCP_RUNS=7 npx tsx bench/lcp.ts                     # loads per page (default 5)
//   LCP_ROOT_BEFORE=/tmp/lcp-before npx tsx bench/lcp.ts  # and a copy of an earlier build, turn about
//   LCP_ROOT=/some/copy npx tsx bench/lcp.ts             # another built copy instead of this one
//   LCP_TRACE=1 LCP_CPU=1 …                              # each request's times; another CPU rate
//
// A copy of a build is a folder with apps/api/{package.json,dist,drizzle}, apps/web/dist and a
// node_modules link (e2e/support/server.ts `root`).
//
// The network is DevTools' "Fast 3G" (since Chrome 126 also named "Slow 4G", crbug.com/342406608),
// as Puppeteer's PredefinedNetworkConditions and DevTools' NetworkManager.ts define it: latency
// 150 ms × 3.75 = 562.5 ms, download 1.6 Mbit/s × 0.9 = 180,000 B/s, upload 750 kbit/s × 0.9 =
// 84,375 B/s (CDP Network.emulateNetworkConditions takes bytes per second). CPU: Emulation.
// setCPUThrottlingRate 4. The window is a phone's, 390 × 844.
//
// The product runs as the journeys run it (e2e/support/server.ts: the built server on a fresh data
// folder); the bench signs in through the embedded identity provider's pages as a person does,
// makes a demo company (generated requests, payments, invoices) and chooses it, all unthrottled.
// Then, for each page and run, a new tab with the cache off: LCP is the last
// 'largest-contentful-paint' entry (PerformanceObserver, buffered) once the page shows its content
// and has been quiet for a while; FCP is the 'first-contentful-paint' entry; "content" is when the
// page's own content is first on screen (the heading and the first card / the Pay button, no
// skeleton left in the main area), taken at the next animation frame. Each load also counts the
// requests the page asked for before its content showed, and how many were scripts.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser.js';
import { chooseCompany, createDemoCompany, getInCompany } from '../e2e/support/demo.js';
import { startServer, type RunningServer } from '../e2e/support/server.js';
import { signInThroughBrowser } from '../e2e/support/sign-in.js';

export const fast3g = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
export const cpuSlowdown = Number(process.env.LCP_CPU ?? 4);
const runs = Number(process.env.LCP_RUNS ?? 5);
const phone = { width: 390, height: 844 };

interface Target {
  name: string;
  path: string;
  /** Whether the page's content is on screen (run in the page, so no closures). */
  ready: string;
  signedIn: boolean;
}

/** Content shown: a level-1 heading, the page's own element, and no skeleton in the main area. */
const noSkeleton = `!document.querySelector('main .mantine-Skeleton-root[data-visible], main .mantine-Loader-root')`;

interface Measured {
  fcp: number;
  lcp: number;
  content: number;
  lcpElement: string;
  /** Requests of the page asked for before its content showed: scripts, and all. */
  scriptsBefore: number;
  requestsBefore: number;
}

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

/** Installed before any script of the page: records LCP entries, FCP and the content time. */
function observe(ready: string) {
  return `(() => {
    const state = { lcp: [], fcp: null, content: null };
    window.__lcpBench = state;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const element = entry.element;
        const text = element ? (element.textContent || '').trim().slice(0, 40) : '';
        state.lcp.push({ time: entry.startTime, size: entry.size,
          element: element ? element.tagName.toLowerCase() + (text ? ' "' + text + '"' : '') : entry.url || '?' });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.name === 'first-contentful-paint') state.fcp = entry.startTime;
    }).observe({ type: 'paint', buffered: true });
    const check = () => {
      if (state.content !== null) return;
      let shown = false;
      try { shown = Boolean(${ready}); } catch { shown = false; }
      if (shown) requestAnimationFrame(() => { if (state.content === null) state.content = performance.now(); });
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  })();`;
}

async function measureOnce(
  context: BrowserContext,
  url: string,
  target: Target,
): Promise<Measured> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', fast3g);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    await page.addInitScript({ content: observe(target.ready) });
    // LCP_TRACE=1: each request's start and end, from the navigation's start.
    const trace: { start: number; end: number; what: string }[] = [];
    // Every request's start (epoch ms) and whether it is a script, to count those before content.
    const asked: { at: number; script: boolean }[] = [];
    page.on('request', (request) =>
      asked.push({ at: Date.now(), script: request.resourceType() === 'script' }),
    );
    if (process.env.LCP_TRACE)
      page.on('requestfinished', (request) => {
        const timing = request.timing();
        const { pathname, search } = new URL(request.url());
        trace.push({
          start: timing.startTime,
          end: timing.startTime + timing.responseEnd,
          what: `${pathname}${search}`.slice(0, 100),
        });
      });
    await page.goto(url, { waitUntil: 'commit', timeout: 180_000 });
    await page.waitForFunction(
      () =>
        (window as unknown as { __lcpBench?: { content: number | null } }).__lcpBench?.content !=
        null,
      undefined,
      { timeout: 180_000, polling: 250 },
    );
    // Quiet for a while: a later, larger paint would still count.
    await page.waitForTimeout(2_000);
    const state = await page.evaluate(
      () =>
        (
          window as unknown as {
            __lcpBench: {
              lcp: { time: number; size: number; element: string }[];
              fcp: number | null;
              content: number;
            };
          }
        ).__lcpBench,
    );
    const contentAt = await page.evaluate(
      (content) => performance.timeOrigin + content,
      state.content,
    );
    const before = asked.filter((request) => request.at <= contentAt);
    const last = state.lcp.at(-1);
    if (trace.length > 0) {
      const origin = Math.min(...trace.map((entry) => entry.start));
      for (const entry of trace.sort((a, b) => a.start - b.start))
        log(
          `  ${Math.round(entry.start - origin)}–${Math.round(entry.end - origin)} ms ${entry.what}`,
        );
    }
    return {
      fcp: state.fcp ?? NaN,
      lcp: last?.time ?? NaN,
      content: state.content,
      lcpElement: last ? `${last.element} (${Math.round(last.size)} px²)` : 'none',
      scriptsBefore: before.filter((request) => request.script).length,
      requestsBefore: before.length,
    };
  } finally {
    await page.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const seconds = (ms: number) => (ms / 1000).toFixed(2);

interface Build {
  label: string;
  server: RunningServer;
  context: BrowserContext;
  payer: BrowserContext;
  targets: Target[];
}

/** Starts a build, signs in, makes a demo company and finds an Open request for the payer page. */
async function prepare(browser: Browser, label: string, root: string | undefined): Promise<Build> {
  // A loaded machine takes its time to migrate a fresh database.
  const server = await startServer({ root, startTimeoutMs: 300_000 });
  const context = await browser.newContext({ viewport: phone });
  context.setDefaultTimeout(120_000);
  const page: Page = await context.newPage();
  await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  log(`${label}: signed in; making a demo company`);
  const companyId = await createDemoCompany(context, server.url, 'Bench Demo Trading', 'LCP-DEMO');
  await chooseCompany(page, companyId);
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  const requests = await getInCompany<{
    items: { id: string; requestStatus: string; amountToPay: number }[];
  }>(context, server.url, companyId, '/api/v0/payment-requests?itemsPerPage=100');
  const open = requests.items.find((r) => r.requestStatus === 'Open' && r.amountToPay > 0);
  if (!open) throw new Error('The demo company has no Open payment request.');
  await page.close();
  const targets: Target[] = [
    {
      name: 'dashboard',
      path: '/',
      ready: `document.querySelector('main h1') && ${noSkeleton}`,
      signedIn: true,
    },
    {
      name: 'payment requests',
      path: '/payment-requests',
      ready: `document.querySelector('main h1') && document.querySelector('[data-grid-card]') && ${noSkeleton}`,
      signedIn: true,
    },
    {
      name: 'payer page',
      path: `/pay/${open.id}`,
      ready: `[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Pay now')`,
      signedIn: false,
    },
  ];
  return { label, server, context, payer: await browser.newContext({ viewport: phone }), targets };
}

async function main() {
  // LCP_ROOT_BEFORE: a second build, loaded turn about with this one, so that both see the same
  // machine (other work on it slows both alike).
  const roots: [string, string | undefined][] = [
    ...(process.env.LCP_ROOT_BEFORE
      ? ([['before', process.env.LCP_ROOT_BEFORE]] as [string, string][])
      : []),
    [process.env.LCP_ROOT_BEFORE ? 'after' : 'this build', process.env.LCP_ROOT],
  ];
  const browser = await launchBrowser();
  const builds: Build[] = [];
  try {
    for (const [label, root] of roots) builds.push(await prepare(browser, label, root));
    log(
      `Fast 3G (latency ${fast3g.latency} ms, down ${fast3g.downloadThroughput} B/s, up ${fast3g.uploadThroughput} B/s), CPU ×${cpuSlowdown}, ${phone.width}×${phone.height}, ${runs} cold loads each`,
    );
    const rows: string[] = [];
    for (let index = 0; index < builds[0]!.targets.length; index++) {
      const results = builds.map(() => [] as Measured[]);
      for (let run = 0; run < runs; run++) {
        for (const [b, build] of builds.entries()) {
          const target = build.targets[index]!;
          const result = await measureOnce(
            target.signedIn ? build.context : build.payer,
            new URL(target.path, build.server.url).href,
            target,
          );
          results[b]!.push(result);
          log(
            `${build.label} ${target.name} #${run + 1}: FCP ${seconds(result.fcp)} s, content ${seconds(result.content)} s, LCP ${seconds(result.lcp)} s — ${result.lcpElement}; before content ${result.requestsBefore} requests, ${result.scriptsBefore} scripts`,
          );
        }
      }
      for (const [b, build] of builds.entries()) {
        const measured = results[b]!;
        const lcps = measured.map((r) => r.lcp);
        rows.push(
          `| ${build.targets[index]!.name} | ${build.label} | ${seconds(median(measured.map((r) => r.fcp)))} | ${seconds(median(measured.map((r) => r.content)))} | ${seconds(median(lcps))} | ${seconds(Math.min(...lcps))}–${seconds(Math.max(...lcps))} |`,
        );
      }
    }
    process.stdout.write(
      `\n| page | build | FCP median (s) | content median (s) | LCP median (s) | LCP range (s) |\n| --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`,
    );
  } finally {
    await browser.close();
    for (const build of builds) await build.server.dispose();
  }
}

await main();
