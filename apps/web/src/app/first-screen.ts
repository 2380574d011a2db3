import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { meQueryOptions } from '@/auth/api/get-me';
import { datasetExistsQueryOptions } from '@/features/datasets/api/get-dataset-exists';
import { todoQueryOptions } from '@/features/dashboard/api/get-to-do';
import { companySettingsQueryOptions } from '@/lib/api/get-company-settings';
import { datasetsAllQueryOptions } from '@/lib/api/get-datasets-all';
import { featureFlagsQueryOptions } from '@/lib/api/get-feature-flags';
import { siteInfoQueryOptions } from '@/lib/api/get-site-info';
import { tenantSettingQueryOptions } from '@/lib/api/get-tenant-setting';
import { markSeeded } from '@/lib/first-calls';
import { isEmbedded } from '@/lib/session';
import { getCompanyId, subscribeCompanyId } from '@/lib/storage';

/**
 * The signed-in first screen the server wrote into the page (apps/api/src/platform/
 * site-first-screen.ts, docs/decisions/175-the-signed-in-site-s-first-screen-in-its-html.md):
 * the API's answers to the screen's first calls, in `#first-screen-answers`. They become early
 * answers (lib/http.ts `takeEarlyAnswer`, keyed as boot.js keys its own), the shell's and the
 * page's queries are filled from them before the first render, and the site renders once the
 * route's page module is in, so that it renders the same screen over the server's in one go.
 * The server knows the chosen company from a cookie this module keeps equal to the stored one.
 */
export const companyCookie = 'ledgerline_company';

interface FirstScreen {
  company: number;
  answers: Record<string, { status: number; body: unknown }>;
}

/** Keeps the company cookie equal to the stored company (not in an embedded view). */
export function keepCompanyCookie(): void {
  if (typeof document === 'undefined' || isEmbedded()) return;
  const write = () => {
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${companyCookie}=${getCompanyId()}; Path=/; SameSite=Lax; Max-Age=31536000${secure}`;
  };
  write();
  subscribeCompanyId(write);
}

/** The server's answers, when they are for this tab's company. */
function readFirstScreen(): FirstScreen | null {
  const block = document.getElementById('first-screen-answers');
  if (!block || isEmbedded()) return null;
  try {
    const parsed = JSON.parse(block.textContent ?? '') as FirstScreen;
    return parsed.company === getCompanyId() ? parsed : null;
  } catch {
    return null;
  }
}

/** How long an answer of the page may wait for the call that takes it. */
const answersKeptMs = 10_000;

function placeEarlyAnswers(screen: FirstScreen): void {
  const holder = window as { __ledgerlineEarly?: Record<string, Promise<Response>> };
  const early = (holder.__ledgerlineEarly ??= {});
  const placed: [string, Promise<Response>][] = [];
  for (const [key, answer] of Object.entries(screen.answers)) {
    const body = answer.body === null ? null : JSON.stringify(answer.body);
    const response = Promise.resolve(
      new Response(body, {
        status: answer.status,
        headers: body === null ? {} : { 'content-type': 'application/json' },
      }),
    );
    early[key] = response;
    placed.push([key, response]);
  }
  // An answer no call took is dropped: a later call asks the API.
  window.setTimeout(() => {
    for (const [key, response] of placed) if (early[key] === response) delete early[key];
  }, answersKeptMs);
}

interface RouterLike {
  state: { initialized: boolean };
  subscribe: (listener: (state: { initialized: boolean }) => void) => () => void;
}

function routerReady(router: RouterLike): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

/**
 * Fills the queries of the page's answers and waits for the route's module; resolves at once
 * without a first screen. Never rejects: whatever fails, the site asks for itself.
 */
export async function startFirstScreen(
  queryClient: QueryClient,
  router: RouterLike,
): Promise<void> {
  const screen = typeof document === 'undefined' ? null : readFirstScreen();
  if (!screen) return;
  placeEarlyAnswers(screen);
  const company = screen.company;
  const has = (url: string, ofCompany = false) =>
    `${ofCompany ? `${company} ` : ''}/api/v0${url}` in screen.answers;
  const fill = async <Options extends { queryKey: QueryKey }>(options: Options) => {
    await queryClient.prefetchQuery(options as never);
    markSeeded(hashKey(options.queryKey));
  };
  const filled = [
    fill(featureFlagsQueryOptions()),
    fill(meQueryOptions()),
    fill(datasetExistsQueryOptions(company)),
    fill(datasetsAllQueryOptions()),
    fill(siteInfoQueryOptions()),
    ...(has('/tenant-settings/AllowCustomerNotifications')
      ? [
          fill(tenantSettingQueryOptions('AllowCustomerNotifications')),
          fill(tenantSettingQueryOptions('AllowInternalNotifications')),
        ]
      : []),
    ...(has('/company-settings', true) ? [fill(companySettingsQueryOptions())] : []),
    ...(has('/dashboard/to-do', true) ? [fill(todoQueryOptions())] : []),
  ];
  // Never longer than a moment: the answers are in the page already.
  const atMost = new Promise<void>((resolve) => window.setTimeout(resolve, 3000));
  await Promise.race([Promise.all([...filled, routerReady(router)]).then(() => undefined), atMost]);
}
