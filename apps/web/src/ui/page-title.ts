import { useEffect, useLayoutEffect } from 'react';

/** The short product name (spec 1 §2.1 page titles, §2.3 loading screen). */
export const productName = 'Ledgerline';

/** spec 1 §2.1: the short product name, then subtitles separated by ' | '. */
export function pageTitle(subtitles: readonly string[] = []): string {
  return [productName, ...subtitles.filter((part) => part !== '')].join(' | ');
}

/**
 * Sets document.title. A page that knows a better title once its data has loaded calls this; it
 * wins over the route's static title, which the route guard sets in a layout effect (layout
 * effects run before passive ones).
 */
export function usePageTitle(subtitles: readonly string[] | undefined): void {
  const title = subtitles ? pageTitle(subtitles) : undefined;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}

/** The route's static title: see usePageTitle. */
export function useRouteTitle(subtitles: readonly string[]): void {
  const title = pageTitle(subtitles);
  useLayoutEffect(() => {
    document.title = title;
  }, [title]);
}
