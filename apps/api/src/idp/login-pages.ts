/**
 * Server-rendered pages of the embedded identity provider: sign-in, set password, sign-out and
 * errors. No inline script or event handler anywhere (the site's CSP has `script-src 'self'`);
 * every value that reaches the HTML goes through escapeHtml.
 */

import { escapeHtml } from '../platform/html.js';

/** Fastify serves the interaction pages here: middie hands everything under /idp to oidc-provider. */
export const loginBasePath = '/idp-login';
export const loginCssPath = `${loginBasePath}/assets/login.css`;
export const logoutScriptPath = `${loginBasePath}/assets/logout.js`;
export const setPasswordPath = `${loginBasePath}/set-password`;

export const invalidCredentialsMessage = 'Invalid email or password.';

/** HTML that is already safe (built from escaped parts); plain strings are escaped. */
export class Html {
  constructor(readonly value: string) {}
}

function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    const part = Array.isArray(value) ? value : [value];
    out += part.map((v) => (v instanceof Html ? v.value : escapeHtml(v))).join('');
    out += strings[i + 1]!;
  });
  return new Html(out);
}

function layout(title: string, body: Html, head: Html = html``): string {
  return `<!DOCTYPE html>${
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title} · Ledgerline</title>
        <link rel="stylesheet" href="${loginCssPath}" />
        ${head}
      </head>
      <body>
        <main class="card">
          <div class="wordmark">Ledgerline</div>
          ${body}
        </main>
      </body>
    </html>`.value
  }`;
}

function errorLine(error: string | null | undefined): Html {
  return error ? html`<p class="error" role="alert">${error}</p>` : html``;
}

export function loginPage(input: { action: string; email: string; error?: string | null }): string {
  return layout(
    'Sign in',
    html`<h1>Sign in</h1>
      <p class="dimmed">Use your Ledgerline account.</p>
      ${errorLine(input.error)}
      <form method="post" action="${input.action}">
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxlength="500"
          value="${input.email}"
          ${input.email ? html`` : html` autofocus`}
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required${input.email ? html` autofocus` : html``}
        />
        <button class="button" type="submit">Sign in</button>
      </form>`,
  );
}

export function setPasswordPage(input: {
  action: string;
  email: string;
  token: string;
  redirect: string;
  error?: string | null;
}): string {
  return layout(
    'Set your password',
    html`<h1>Set your password</h1>
      <p class="dimmed">Choose a password for ${input.email}.</p>
      ${errorLine(input.error)}
      <form method="post" action="${input.action}">
        <input type="hidden" name="token" value="${input.token}" />
        <input type="hidden" name="redirect" value="${input.redirect}" />
        <input
          type="email"
          name="email"
          autocomplete="username"
          value="${input.email}"
          hidden
          readonly
        />
        <label for="password">New password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength="8"
          autofocus
        />
        <label for="confirm">Confirm password</label>
        <input
          id="confirm"
          name="confirm"
          type="password"
          autocomplete="new-password"
          required
          minlength="8"
        />
        <button class="button" type="submit">Set password</button>
      </form>`,
  );
}

/** A page with a title, a sentence and a way back to the site. */
export function messagePage(input: {
  title: string;
  message: string;
  link?: { href: string; label: string };
}): string {
  return layout(
    input.title,
    html`<h1>${input.title}</h1>
      <p class="dimmed">${input.message}</p>
      ${input.link ? html`<a class="button" href="${input.link.href}">${input.link.label}</a>` : html``}`,
  );
}

/**
 * The sign-out confirmation of RP-initiated logout. `form` is oidc-provider's own form (its action
 * and XSRF field); our button submits it with `logout=yes`, ending the whole provider session.
 * With autoSubmit the page's script clicks the button itself.
 */
export function logoutPage(input: { form: string; autoSubmit: boolean; siteUrl: string }): string {
  return layout(
    'Sign out',
    html`<h1>Sign out</h1>
      <p class="dimmed">Sign out of Ledgerline on this browser?</p>
      ${new Html(input.form)}
      <button
        class="button"
        type="submit"
        form="op.logoutForm"
        name="logout"
        value="yes"
        ${input.autoSubmit ? html` data-auto-submit` : html``}
        autofocus
      >
        Sign out
      </button>
      <a class="link" href="${input.siteUrl}">Back to Ledgerline</a>`,
    input.autoSubmit ? html`<script src="${logoutScriptPath}" defer></script>` : html``,
  );
}
