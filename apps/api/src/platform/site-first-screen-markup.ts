import {
  hasPermissions,
  type UserMe,
  type FeatureFlags,
  type TodoItem,
} from '@ledgerline/contract';
import { escapeHtml } from './html.js';
import { longDate, shortDateTime, zoneDisplayName } from './site-dates.js';

/**
 * The page area of the signed-in site's first screen, as the server writes it into index.html
 * (site-first-screen.ts, docs/decisions/175-the-signed-in-site-s-first-screen-in-its-html.md):
 * the same elements, Mantine classes and inline variables the site's components render
 * (features/dashboard/components/dashboard-header.tsx, todo-panel.tsx, the payment requests
 * page's heading), so that each text has the size and place it will have once the site has
 * rendered over it. A change to those components is a change here; the API test
 * (src/platform/site-first-screen.test.ts) and the journeys hold the texts. Every text is escaped.
 */

const stack = (gap: string, body: string) =>
  `<div class="m_6d731127 mantine-Stack-root" style="--stack-gap: ${gap}; --stack-align: stretch; --stack-justify: flex-start;">${body}</div>`;

const title = (text: string) =>
  `<h1 class="m_8a5d1357 mantine-Title-root" data-size="h2" data-order="1" style="--title-fw: var(--mantine-h2-font-weight); --title-lh: var(--mantine-h2-line-height); --title-fz: var(--mantine-h2-font-size);">${escapeHtml(text)}</h1>`;

const smallText =
  'data-size="sm" style="--text-fz: var(--mantine-font-size-sm); --text-lh: var(--mantine-line-height-sm);';

const iconPaths = {
  warning:
    '<path d="M12 9v4"></path><path d="M10.363 3.591l-8.106 13.534a1.914 1.914 0 0 0 1.636 2.871h16.214a1.914 1.914 0 0 0 1.636 -2.87l-8.106 -13.536a1.914 1.914 0 0 0 -3.274 0"></path><path d="M12 16h.01"></path>',
  info: '<path d="M3 12a9 9 0 1 0 18 0a9 9 0 0 0 -18 0"></path><path d="M12 9h.01"></path><path d="M11 12h1v4h1"></path>',
  urgent:
    '<path d="M8 16v-4a4 4 0 0 1 8 0v4"></path><path d="M3 12h1m8 -9v1m8 8h1m-15.4 -6.4l.7 .7m12.1 -.7l-.7 .7"></path><path d="M6 17a1 1 0 0 1 1 -1h10a1 1 0 0 1 1 1v2a1 1 0 0 1 -1 1h-10a1 1 0 0 1 -1 -1l0 -2"></path>',
  clock: '<path d="M3 12a9 9 0 1 0 18 0a9 9 0 0 0 -18 0"></path><path d="M12 7v5l3 3"></path>',
};

const icon = (paths: string, size: number, name: string, hidden = false) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="tabler-icon tabler-icon-${name}"${hidden ? ' aria-hidden="true"' : ''}>${paths}</svg>`;

const severities = {
  Informational: { color: 'blue', icon: icon(iconPaths.info, 18, 'info-circle') },
  Warning: { color: 'yellow', icon: icon(iconPaths.warning, 18, 'alert-triangle') },
  Critical: { color: 'red', icon: icon(iconPaths.urgent, 18, 'urgent') },
} as const;

/** The page area's container (shell-layout.tsx): Mantine's Container, xl, no side padding. */
function container(body: string, fluid: boolean): string {
  const size = fluid
    ? 'data-fluid="true" data-strategy="block" style="padding-inline: 0rem;"'
    : 'data-strategy="block" style="--container-size: var(--container-size-xl); padding-inline: 0rem;"';
  return `<div class="m_7485cace mantine-Container-root" data-size="xl" ${size}>${body}</div>`;
}

function todoRow(item: TodoItem, canFix: boolean): string {
  const severity = severities[item.severity];
  const fix = canFix
    ? `<a class="mantine-focus-auto mantine-active m_77c9d27d mantine-Button-root m_87cf2631 mantine-UnstyledButton-root" data-variant="light" data-size="xs" href="${escapeHtml(item.url)}" style="--button-height: var(--button-height-xs); --button-padding-x: var(--button-padding-x-xs); --button-fz: var(--mantine-font-size-xs); --button-bg: var(--mantine-color-indigo-light); --button-hover: var(--mantine-color-indigo-light-hover); --button-color: var(--mantine-color-indigo-light-color); --button-bd: calc(0.0625rem * var(--mantine-scale)) solid transparent; flex-shrink: 0;"><span class="m_80f1301b mantine-Button-inner"><span class="m_811560b9 mantine-Button-label">Fix</span></span></a>`
    : '';
  return (
    `<div class="m_4081bf90 mantine-Group-root" data-testid="todo-${escapeHtml(item.id)}" style="--group-gap: var(--mantine-spacing-md); --group-align: flex-start; --group-justify: space-between; --group-wrap: nowrap;">` +
    `<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-md); --group-align: flex-start; --group-justify: flex-start; --group-wrap: nowrap; flex: 1 1 0%; min-width: 0rem;">` +
    `<div class="m_7341320d mantine-ThemeIcon-root" data-variant="light" role="img" aria-label="${escapeHtml(item.severity)}" style="--ti-bg: var(--mantine-color-${severity.color}-light); --ti-color: var(--mantine-color-${severity.color}-light-color); --ti-bd: calc(0.0625rem * var(--mantine-scale)) solid transparent;">${severity.icon}</div>` +
    `<div style="min-width: 0px; overflow-wrap: anywhere;"><p class="mantine-focus-auto m_b6d8b162 mantine-Text-root" style="font-weight: 600;">${escapeHtml(item.title)}</p>` +
    `<p class="mantine-focus-auto m_b6d8b162 mantine-Text-root" ${smallText} color: var(--mantine-color-dimmed);">${escapeHtml(item.message)}</p></div></div>${fix}</div>`
  );
}

export interface DashboardFirstScreen {
  user: UserMe;
  flags: FeatureFlags;
  todo: TodoItem[];
  now: Date;
}

/** The dashboard's heading, greeting, clock and to-do panel (spec 1 §2.4). */
export function dashboardMarkup({ user, flags, todo, now }: DashboardFirstScreen): string {
  const settings = user.userSetting;
  const name = user.forename || user.displayName;
  const zone = zoneDisplayName(settings.timeZoneId);
  const header = stack(
    'calc(0.25rem * var(--mantine-scale))',
    title('Dashboard') +
      `<p class="mantine-focus-auto m_b6d8b162 mantine-Text-root" style="color: var(--mantine-color-dimmed);">${name ? `Welcome, ${escapeHtml(name)}. ` : ''}Today is ${escapeHtml(longDate(now, settings))}.</p>` +
      `<div class="m_4081bf90 mantine-Group-root" style="--group-gap: calc(0.375rem * var(--mantine-scale)); --group-align: center; --group-justify: flex-start; --group-wrap: wrap; color: var(--mantine-color-dimmed);">${icon(iconPaths.clock, 16, 'clock', true)}` +
      `<p class="mantine-focus-auto m_b6d8b162 mantine-Text-root" ${smallText}">${escapeHtml(shortDateTime(now, settings))}${zone ? ` · ${escapeHtml(zone)}` : ''}</p></div>`,
  );
  const policy = flags.PermissionPolicy === true;
  const rows =
    todo.length === 0
      ? '<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-md); --group-align: center; --group-justify: flex-start; --group-wrap: wrap;"><p class="mantine-focus-auto m_b6d8b162 mantine-Text-root">Everything is set up. Nothing left to do.</p></div>'
      : todo
          .map((item) =>
            todoRow(
              item,
              hasPermissions(user.permissions, item.requiredPermissionToFix ?? undefined, policy),
            ),
          )
          .join('');
  const todoPanel =
    `<div class="m_e615b15f mantine-Card-root m_1b7284a3 mantine-Paper-root" data-with-border="true" style="--paper-radius: var(--mantine-radius-md);">` +
    stack(
      'var(--mantine-spacing-md)',
      `<h4 class="m_8a5d1357 mantine-Title-root" data-order="4" style="--title-fw: var(--mantine-h4-font-weight); --title-lh: var(--mantine-h4-line-height); --title-fz: var(--mantine-h4-font-size);">To do</h4>${rows}`,
    ) +
    '</div>';
  // The panels' grid (dashboard-page.module.css): one column below lg; the to-do panel takes the row.
  const panels = `<div style="display: grid; gap: var(--mantine-spacing-lg); grid-template-columns: minmax(0, 1fr);"><div>${todoPanel}</div><div class="boot-bone boot-block tall"></div></div>`;
  return container(
    stack('var(--mantine-spacing-lg)', header + stack('var(--mantine-spacing-sm)', '') + panels),
    false,
  );
}

/** The payment requests list's heading and description (spec 2 §7), its grid still to come. */
export function paymentRequestsMarkup(): string {
  const heading =
    '<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-md); --group-align: flex-start; --group-justify: space-between; --group-wrap: wrap;"><div>' +
    title('Payment Requests') +
    `<div class="mantine-focus-auto m_b6d8b162 mantine-Text-root" ${smallText} margin-top: calc(0.25rem * var(--mantine-scale)); color: var(--mantine-color-dimmed); max-width: calc(47.5rem * var(--mantine-scale));">Requests for money your customers pay through a link or a QR code.</div></div></div>`;
  return container(
    stack(
      'var(--mantine-spacing-lg)',
      heading +
        '<div class="boot-bone" style="height: 36px;"></div><div class="boot-bone boot-block tall"></div>',
    ),
    true,
  );
}
