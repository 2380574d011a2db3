/**
 * Full-page navigation. Kept apart so that components can be tested without leaving the page
 * (jsdom cannot navigate).
 */
export function reloadPage(): void {
  window.location.reload();
}

export function assignLocation(url: string): void {
  window.location.assign(url);
}

export function replaceLocation(url: string): void {
  window.location.replace(url);
}
