/**
 * spec 3 §2, §9: cursor paging. `cursor` is the page shown (undefined: the first); `previous` is
 * the stack of the cursors of the pages before it, so Previous can go back.
 */
export interface CursorPosition {
  cursor: string | undefined;
  previous: (string | undefined)[];
}

export const firstPage: CursorPosition = { cursor: undefined, previous: [] };

export function nextPage(position: CursorPosition, next: string): CursorPosition {
  return { cursor: next, previous: [...position.previous, position.cursor] };
}

export function previousPage(position: CursorPosition): CursorPosition {
  if (position.previous.length === 0) return position;
  return { cursor: position.previous.at(-1), previous: position.previous.slice(0, -1) };
}

export function hasPreviousPage(position: CursorPosition): boolean {
  return position.previous.length > 0;
}
