/**
 * What the payer page asks of the browser beyond rendering: leaving for a provider and keeping
 * the address bar in step. Passed to the page as one object so component tests can record the
 * navigation that jsdom cannot perform.
 */
export interface PayBrowser {
  /** Sends the payer to a provider's page (Stripe Checkout, TrueLayer, GoCardless...). */
  goTo(url: string): void;
  /** POSTs a hosted form (Opayo Form, TranSafe hosted page) by submitting a built <form>. */
  postTo(url: string, fields: Record<string, string>): void;
  /** Replaces the page's query without loading it again (`?payment=...`). */
  replaceQuery(query: Record<string, string>): void;
  /** Stores what a reload of the page needs (the OPPWA checkout), for this tab only. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

export const realBrowser: PayBrowser = {
  goTo(url) {
    window.location.assign(url);
  },
  postTo(url, fields) {
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = url;
    form.hidden = true;
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  },
  replaceQuery(query) {
    const search = new URLSearchParams(query).toString();
    window.history.replaceState(
      null,
      '',
      `${window.location.pathname}${search ? `?${search}` : ''}`,
    );
  },
  get storage() {
    return window.sessionStorage;
  },
};

/** `/pay/{id}` → the id (anything after /pay/ up to the next slash), or null. */
export function requestIdFromPath(pathname: string): string | null {
  const match = /^\/pay\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** The page's query as a plain record. */
export function queryOf(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}
