import { z } from 'zod';
import { queryMessages } from './parse-query.js';
import { queryLimits } from './query-limits.js';

/*
 * Route schemas for the query string (design §3). They bound and coerce the raw parameters; the
 * resource's whitelist is applied afterwards by parsePageQuery / parseCursorQuery, which accept
 * these schemas' output.
 */

const itemsPerPage = z.coerce
  .number<string | number>({ error: queryMessages.itemsPerPage })
  .int({ error: queryMessages.itemsPerPage })
  .min(1, { error: queryMessages.itemsPerPage })
  .max(queryLimits.itemsPerPageMax, { error: queryMessages.itemsPerPage })
  .default(queryLimits.itemsPerPageDefault)
  .describe(
    `Items per page, 1 to ${queryLimits.itemsPerPageMax}; default ${queryLimits.itemsPerPageDefault}.`,
  );

const filter = z
  .string()
  .max(queryLimits.filterTextMax)
  .optional()
  .describe(
    "Comma-separated 'field operator value' items, all of which must match, e.g. " +
      "'status eq Paid,customerName ct Acme Ltd'; several eq items on one enum field are " +
      "alternatives ('status eq Failed,status eq Rejected': either). Operators: string ct, nct, sw, ew, eq, neq; " +
      'number and date eq, neq, gt, ge, lt, le; enum, id and boolean eq, neq. ' +
      "Inside a value write a comma as '\\,' and a backslash as '\\\\'.",
  );

export const pageQuerySchema = z.object({
  page: z.coerce
    .number<string | number>({ error: queryMessages.page })
    .int({ error: queryMessages.page })
    .min(1, { error: queryMessages.page })
    .max(queryLimits.pageMax, { error: queryMessages.page })
    .default(1)
    .describe('Page number, from 1.'),
  itemsPerPage,
  sort: z
    .string()
    .max(queryLimits.sortTextMax)
    .optional()
    .describe("Comma list of fields; a leading '-' sorts descending, e.g. '-statusDateTime'."),
  filter,
  expand: z
    .string()
    .max(queryLimits.expandTextMax)
    .optional()
    .describe('Comma list of lower-case names of related records to include.'),
  search: z
    .string()
    .max(queryLimits.filterValueMax)
    .optional()
    .describe(
      'The search box (lists that have one): words found in the list’s references and names, or, ' +
        'when they read as an amount (1250.50, £1,250.50), that amount exactly. Combines with `filter`.',
    ),
});
export type PageQueryParams = z.input<typeof pageQuerySchema>;

export const cursorQuerySchema = z.object({
  cursor: z
    .string()
    .max(queryLimits.cursorTextMax, { error: queryMessages.cursor })
    .optional()
    .describe("The 'next' value of the previous page; omit for the first page."),
  itemsPerPage,
  filter,
  search: pageQuerySchema.shape.search,
});
export type CursorQueryParams = z.input<typeof cursorQuerySchema>;
