import { parseExpand } from './parse-expand.js';
import { parseFilter } from './parse-filter.js';
import { parseSort } from './parse-sort.js';
import { QueryError, previewQueryItem } from './query-error.js';
import type { QueryParameter } from './query-error.js';
import { lastReachablePage, queryLimits } from './query-limits.js';
import type { CursorQuery, PageQuery, QueryFieldMap, QueryFields } from './query-types.js';

/** Query-string values, raw or already coerced by pageQuerySchema. */
export interface PageQueryInput {
  page?: number | string;
  itemsPerPage?: number | string;
  sort?: string;
  filter?: string;
  expand?: string;
}

export interface CursorQueryInput {
  cursor?: string;
  itemsPerPage?: number | string;
  filter?: string;
}

/** Messages shared with the zod schemas, so both paths answer alike. */
export const queryMessages = {
  page: `Page must be a whole number from 1 to ${queryLimits.pageMax}.`,
  itemsPerPage: `Items per page must be a whole number from 1 to ${queryLimits.itemsPerPageMax}.`,
  pastLastReachablePage: (itemsPerPage: number) =>
    `Pages reach the first ${queryLimits.offsetMax.toLocaleString('en-GB')} rows of a list: at ${itemsPerPage} a page, page ${lastReachablePage(itemsPerPage)} is the last. Filter the list or sort it the other way to see the rows beyond.`,
  cursor: "The cursor is not valid; send the 'next' value of the previous page unchanged.",
} as const;

// Base64url only: anything else cannot be a cursor the server made.
const cursorPattern = /^[A-Za-z0-9_-]+$/;

/** Parses offset paging parameters (design §3) against a resource's whitelist. */
export function parsePageQuery<F extends QueryFieldMap, E extends string>(
  query: QueryFields<F, E>,
  input: PageQueryInput,
): PageQuery<F, E> {
  const page = parseWholeNumber('page', input.page, 1, queryLimits.pageMax, queryMessages.page);
  const itemsPerPage = parseItemsPerPage(input.itemsPerPage);
  if (page > lastReachablePage(itemsPerPage)) {
    throw new QueryError({
      parameter: 'page',
      item: previewQueryItem(String(input.page)),
      message: queryMessages.pastLastReachablePage(itemsPerPage),
    });
  }
  return {
    page,
    itemsPerPage,
    sort: parseSort(query, input.sort),
    filters: parseFilter(query, input.filter),
    expand: parseExpand(query, input.expand),
  };
}

/**
 * Parses cursor paging parameters (design §3). The order is always the resource's default sort;
 * the cursor itself is opaque here and decoded by the server.
 */
export function parseCursorQuery<F extends QueryFieldMap>(
  query: QueryFields<F, string>,
  input: CursorQueryInput,
): CursorQuery<F> {
  const cursor = input.cursor?.trim() || undefined;
  if (
    cursor !== undefined &&
    (cursor.length > queryLimits.cursorTextMax || !cursorPattern.test(cursor))
  ) {
    throw new QueryError({
      parameter: 'cursor',
      item: previewQueryItem(cursor),
      message: queryMessages.cursor,
    });
  }
  return {
    cursor,
    itemsPerPage: parseItemsPerPage(input.itemsPerPage),
    sort: parseSort(query, undefined),
    filters: parseFilter(query, input.filter),
  };
}

function parseItemsPerPage(value: number | string | undefined): number {
  return parseWholeNumber(
    'itemsPerPage',
    value,
    queryLimits.itemsPerPageDefault,
    queryLimits.itemsPerPageMax,
    queryMessages.itemsPerPage,
  );
}

// Number() as z.coerce.number() does, so the zod schema and this parser accept the same input.
function parseWholeNumber(
  parameter: QueryParameter,
  value: number | string | undefined,
  fallback: number,
  max: number,
  message: string,
): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) {
    throw new QueryError({ parameter, item: previewQueryItem(String(value)), message });
  }
  return number;
}
