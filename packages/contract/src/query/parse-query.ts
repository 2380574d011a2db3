import { parseExpand } from './parse-expand.js';
import { parseFilter } from './parse-filter.js';
import { parseSort } from './parse-sort.js';
import { QueryError, previewQueryItem } from './query-error.js';
import type { QueryParameter } from './query-error.js';
import { lastReachablePage, queryLimits } from './query-limits.js';
import type {
  CursorQuery,
  FilterableField,
  PageQuery,
  QueryFieldMap,
  QueryFields,
  QuerySearch,
} from './query-types.js';

/** Query-string values, raw or already coerced by pageQuerySchema. */
export interface PageQueryInput {
  page?: number | string;
  itemsPerPage?: number | string;
  sort?: string;
  filter?: string;
  expand?: string;
  search?: string;
}

export interface CursorQueryInput {
  cursor?: string;
  itemsPerPage?: number | string;
  filter?: string;
  search?: string;
}

/** Messages shared with the zod schemas, so both paths answer alike. */
export const queryMessages = {
  page: `Page must be a whole number from 1 to ${queryLimits.pageMax}.`,
  itemsPerPage: `Items per page must be a whole number from 1 to ${queryLimits.itemsPerPageMax}.`,
  pastLastReachablePage: (itemsPerPage: number) =>
    `Pages reach the first ${queryLimits.offsetMax.toLocaleString('en-GB')} rows of a list: at ${itemsPerPage} a page, page ${lastReachablePage(itemsPerPage)} is the last. Filter the list or sort it the other way to see the rows beyond.`,
  cursor: "The cursor is not valid; send the 'next' value of the previous page unchanged.",
  searchTooLong: `Search for at most ${queryLimits.searchTextMax} characters: a reference, a name or an amount.`,
  noSearch: 'This list has no search; use its filters.',
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
    ...parseSearch(query, input.search),
  };
}

// An amount as people type it: '1250.5', '1,250.50', '£1,250.50', 'GBP 1250', '-20'.
const amountPattern = /^-?(?:\d{1,3}(?:,\d{3})+|\d{1,15})(?:\.\d{1,4})?$/;

/** The search text as an amount (a decimal string), or undefined when it does not read as one. */
export function searchAmount(text: string): string | undefined {
  const bare = text
    .replace(/^[A-Za-z]{3}\s+|\s+[A-Za-z]{3}$/g, '')
    .replace(/^(-?)\s*[£$€¥]\s*/, '$1')
    .trim();
  if (!amountPattern.test(bare)) return undefined;
  return bare.replace(/,/g, '');
}

/**
 * The search box: the words are found in any of the list's search fields, or,
 * when they read as an amount, the amount equals it. Empty words search nothing.
 */
function parseSearch<F extends QueryFieldMap, E extends string>(
  query: QueryFields<F, E>,
  input: string | undefined,
): { search?: QuerySearch<FilterableField<F>> } {
  const text = input?.trim() ?? '';
  if (text === '') return {};
  const fail = (message: string) =>
    new QueryError({ parameter: 'search', item: previewQueryItem(text), message });
  if (!query.search) throw fail(queryMessages.noSearch);
  if (text.length > queryLimits.searchTextMax) throw fail(queryMessages.searchTooLong);
  const amount = query.search.amount === undefined ? undefined : searchAmount(text);
  return {
    search: {
      text,
      fields: query.search.text,
      ...(amount !== undefined ? { amount: { field: query.search.amount!, value: amount } } : {}),
    },
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
    ...parseSearch(query, input.search),
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
