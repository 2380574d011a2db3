import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FeatureFlags, TodoItem, UserMe } from '@ledgerline/contract';
import { sessionCookieName } from './auth.js';
import { dashboardMarkup, paymentRequestsMarkup } from './site-first-screen-markup.js';

/**
 * The signed-in site's first screen in its HTML (docs/decisions/175-the-signed-in-site-s-first-screen-in-its-html.md):
 * for the plain load of the dashboard (`/`) or the payment requests list (`/payment-requests`)
 * with a session cookie and the company the site last chose (`ledgerline_company`, a copy of its
 * stored company the site writes, app/first-screen.ts), the server asks its own API, as that
 * session, for the calls the screen makes first and writes into the built index.html:
 *  - the page area (heading, greeting, to-do list / the list's heading), in the components'
 *    markup (site-first-screen-markup.ts), in place of the frame's bones;
 *  - the answers, as a JSON data block (`#first-screen-answers`) the site's query cache starts
 *    from instead of asking again, keyed as boot.js keys its early calls;
 *  - `<link rel="modulepreload">` for the screen's own files, so that they are asked for with
 *    the entry's.
 * The answers are the API's own (the same session check, company check, permissions and
 * serialisation), so the page tells the session nothing the API would not. Anything else (no
 * or an ended session, another company, an unknown one, a query in the address, a frame, a
 * failed call, a screen that would show a notice this markup does not write) is the built file.
 */

export const companyCookieName = 'ledgerline_company';

/** The addresses one screen asks for first: the tenant's, and the company's (with Dataset-Id). */
interface ScreenCalls {
  tenant: string[];
  company: string[];
  /** The screen's path pattern in boot.js's map of route files. */
  route: string;
}

const shellCalls = (company: number) => [
  '/api/v0/info/feature-flags?target=adminPortal',
  '/api/v0/users/me',
  `/api/v0/data-sets/${company}/exists`,
  '/api/v0/data-sets/all',
  '/api/v0/info/site',
  '/api/v0/info/sign-in',
];

const dashboardTodo = '/api/v0/dashboard/to-do';
const notificationSettings = [
  '/api/v0/tenant-settings/AllowCustomerNotifications',
  '/api/v0/tenant-settings/AllowInternalNotifications',
];

/**
 * The calls as the site's components ask for them (the same query strings): those the first
 * render needs. The dashboard's figures and latest payments, below the first screen, are left to
 * boot.js, which asks for them as the page is read: in the page they would make it larger and
 * later.
 */
const screens: Record<string, (company: number) => ScreenCalls> = {
  '/': (company) => ({
    route: '/',
    tenant: [...shellCalls(company), ...notificationSettings],
    company: ['/api/v0/company-settings', dashboardTodo],
  }),
  '/payment-requests': (company) => ({
    route: '/payment-requests',
    tenant: shellCalls(company),
    company: [
      '/api/v0/company-settings',
      '/api/v0/payment-requests?page=1&itemsPerPage=10&sort=-createdOn',
    ],
  }),
};

interface Answer {
  status: number;
  body: unknown;
}

const companyPattern = /^[1-9]\d{0,8}$/;

/** The screen to write and its company, or null when this load gets the built file. */
function screenOf(request: FastifyRequest, cookieName: string) {
  if (request.method !== 'GET') return null;
  const [path, query] = request.url.split('?');
  const screen = screens[path ?? ''];
  if (!screen || query !== undefined) return null;
  // A frame (the embedded view, spec 3 §2) has its own session rules: the plain file.
  const destination = request.headers['sec-fetch-dest'];
  if (destination !== undefined && destination !== 'document') return null;
  const company = request.cookies[companyCookieName];
  if (!request.cookies[cookieName] || !company || !companyPattern.test(company)) return null;
  return { calls: screen(Number(company)), company: Number(company) };
}

async function ask(
  app: FastifyInstance,
  request: FastifyRequest,
  url: string,
  company: number | null,
): Promise<Answer> {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: {
      accept: 'application/json',
      cookie: request.headers.cookie ?? '',
      ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
      ...(company === null ? {} : { 'dataset-id': String(company) }),
    },
  });
  const text = response.body;
  return { status: response.statusCode, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

/** The screen's answers, keyed as boot.js and lib/http.ts key early answers. */
async function answersOf(
  app: FastifyInstance,
  request: FastifyRequest,
  calls: ScreenCalls,
  company: number,
): Promise<Record<string, Answer> | null> {
  const asked = await Promise.all([
    ...calls.tenant.map(async (url) => [url, await ask(app, request, url, null)] as const),
    ...calls.company.map(
      async (url) => [`${company} ${url}`, await ask(app, request, url, company)] as const,
    ),
  ]);
  const answers = Object.fromEntries(asked);
  const me = answers['/api/v0/users/me'];
  const exists = answers[`/api/v0/data-sets/${company}/exists`];
  // No session, another tenant's or an unknown company: the built file.
  if (me?.status !== 200 || exists?.status !== 204) return null;
  // Only what the site would take as it is: answers, and a setting's 404 (off).
  return Object.fromEntries(
    asked.filter(
      ([, answer]) => answer.status === 200 || answer.status === 204 || answer.status === 404,
    ),
  );
}

/** Whether a tenant setting the dashboard shows a notice for is off (its 404 is off too). */
function settingOff(answer: Answer | undefined): boolean {
  const value = (answer?.body as { value?: string } | null)?.value;
  return answer === undefined || answer.status === 404 || value !== 'true';
}

function pageMarkup(
  route: string,
  answers: Record<string, Answer>,
  company: number,
): string | null {
  if (route === '/payment-requests') return paymentRequestsMarkup();
  const todo = answers[`${company} ${dashboardTodo}`];
  const flags = answers['/api/v0/info/feature-flags?target=adminPortal'];
  // The notices of spec 1 §2.4 are not written here: a tenant that has them gets the built file.
  if (notificationSettings.some((url) => settingOff(answers[url]))) return null;
  if (todo?.status !== 200 || flags?.status !== 200) return null;
  return dashboardMarkup({
    user: answers['/api/v0/users/me']!.body as UserMe,
    flags: (flags.body as { featureFlags: FeatureFlags }).featureFlags,
    todo: (todo.body as { items: TodoItem[] }).items,
    now: new Date(),
  });
}

/** The screen's own files from boot.js's map in the built page (vite.config.ts bootScript). */
function routeFilesOf(document: string, route: string): string[] {
  const match = /var routeFiles = (\{.*?\});\n/.exec(document);
  if (!match) return [];
  try {
    const map = JSON.parse(match[1]!) as { files: string[]; routes: [string, number[]][] };
    const entry = map.routes.find(([path]) => path === route);
    return entry ? entry[1].map((index) => map.files[index]!).filter(Boolean) : [];
  } catch {
    return [];
  }
}

const mainStart = '<div class="boot-main">';
const mainBones = /<div class="boot-main">[\s\S]*?<div class="boot-bone boot-block tall"><\/div>/;

/**
 * The theme's values the page area's text needs before the site's provider writes them
 * (app/theme.ts: headings at 600, the darker dimmed text).
 */
const themeStyle =
  '<style>:root{--mantine-heading-font-weight:600;--mantine-h1-font-weight:600;--mantine-h2-font-weight:600;--mantine-h3-font-weight:600;--mantine-h4-font-weight:600;--mantine-color-dimmed:#5c636a}</style>';

/** The data block: JSON with every `<` written `\u003c`, so nothing in it can end the element. */
function dataBlock(company: number, answers: Record<string, Answer>): string {
  const json = JSON.stringify({ company, answers }).replace(/</g, '\\u003c');
  return `<script type="application/json" id="first-screen-answers">${json}</script>`;
}

export function writeFirstScreen(
  document: string,
  route: string,
  company: number,
  answers: Record<string, Answer>,
  markup: string,
): string | null {
  if (!mainBones.test(document) || !document.includes('<script>')) return null;
  const preloads = routeFilesOf(document, route)
    .map((file) =>
      file.endsWith('.css')
        ? `<link rel="preload" as="style" crossorigin href="/${file}">`
        : `<link rel="modulepreload" crossorigin href="/${file}">`,
    )
    .join('');
  const head = `${themeStyle}${dataBlock(company, answers)}`;
  return document
    .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
    .replace('<script>', `${head}<script>`)
    .replace('</head>', `${preloads}</head>`)
    .replace(mainBones, () => `${mainStart}${markup}`);
}

/** The signed-in first screen of the built page `documentPath`, or null for the file itself. */
export function createSiteFirstScreen(
  app: FastifyInstance,
  documentPath: string,
  cookieSecure: boolean,
) {
  const cookieName = sessionCookieName(cookieSecure);
  let built: string | null = null;
  return async function siteFirstScreen(request: FastifyRequest): Promise<string | null> {
    const screen = screenOf(request, cookieName);
    if (!screen) return null;
    try {
      const answers = await answersOf(app, request, screen.calls, screen.company);
      if (!answers) return null;
      const markup = pageMarkup(screen.calls.route, answers, screen.company);
      if (markup === null) return null;
      built ??= readFileSync(documentPath, 'utf8');
      return writeFirstScreen(built, screen.calls.route, screen.company, answers, markup);
    } catch (error) {
      // The site asks for itself, as it does without a first screen.
      request.log.warn({ err: error }, 'site: first screen not written');
      return null;
    }
  };
}

/**
 * The written page, compressed as the built files are (they are served pre-compressed): brotli
 * at a quality quick enough for every load, else gzip, else as it is.
 */
export function encodeForClient(
  request: FastifyRequest,
  html: string,
): { body: Buffer; encoding: 'br' | 'gzip' | null } {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const body = Buffer.from(html, 'utf8');
  if (/\bbr\b/.test(accepted))
    return {
      body: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      encoding: 'br',
    };
  if (/\bgzip\b/.test(accepted)) return { body: gzipSync(body), encoding: 'gzip' };
  return { body, encoding: null };
}
