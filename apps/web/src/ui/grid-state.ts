import {
  formatFilter,
  formatSort,
  limits,
  type FilterItemInput,
  type QuerySort,
} from '@ledgerline/contract';
import { local } from '@/lib/storage';

/** spec 2 "Grids in general": default page size 10. */
export const defaultPageSize = limits.itemsPerPageDefault;
export const pageSizeChoices = [10, 20, 50, 100] as const;

/** A column filter as the user set it; `field` is the query field it applies to. */
export type GridFilter =
  | { type: 'text'; value: string }
  | { type: 'select'; value: string }
  /** Several values of one enum field, any of which (a status multi-select). */
  | { type: 'choices'; values: string[] }
  | { type: 'number'; value: number }
  | { type: 'date'; from: string | null; to: string | null };

export type GridFilterType = GridFilter['type'];

/** What spec 2 "Grids in general" remembers: filters, sort, page and page size. */
export interface GridState {
  page: number;
  pageSize: number;
  sort: QuerySort | null;
  filters: Record<string, GridFilter>;
  /** The search box's words; '' for none. */
  search: string;
}

/** The paging parameters of spec 1 §7 for a server-paged call. */
export interface GridQuery {
  page: number;
  itemsPerPage: number;
  sort?: string;
  filter?: string;
  search?: string;
}

export function defaultGridState(defaultSort: QuerySort | null = null): GridState {
  return { page: 1, pageSize: defaultPageSize, sort: defaultSort, filters: {}, search: '' };
}

/** A day picked in a date filter ('2024-03-31') as the UTC midnight the filter's whole day means. */
function utcDay(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

function isActive(filter: GridFilter): boolean {
  switch (filter.type) {
    case 'text':
      return filter.value.trim() !== '';
    case 'select':
      return filter.value !== '';
    case 'choices':
      return filter.values.length > 0;
    case 'number':
      return Number.isFinite(filter.value);
    case 'date':
      return filter.from !== null || filter.to !== null;
  }
}

export function activeFilters(filters: Record<string, GridFilter>): [string, GridFilter][] {
  return Object.entries(filters).filter(([, filter]) => isActive(filter));
}

/**
 * spec 1 §7: the `filter` parameter. Text contains, select equals, number at least, and a date
 * range of whole days (from ge, to le).
 */
export function gridFilterItems(filters: Record<string, GridFilter>): FilterItemInput[] {
  const items: FilterItemInput[] = [];
  for (const [field, filter] of activeFilters(filters)) {
    switch (filter.type) {
      case 'text':
        items.push({ field, operator: 'ct', value: filter.value.trim() });
        break;
      case 'select':
        items.push({ field, operator: 'eq', value: filter.value });
        break;
      case 'choices':
        // eq items on one enum field are alternatives on the server (paging/compile-filter.ts).
        for (const value of filter.values) items.push({ field, operator: 'eq', value });
        break;
      case 'number':
        items.push({ field, operator: 'ge', value: filter.value });
        break;
      case 'date':
        if (filter.from)
          items.push({ field, operator: 'ge', value: utcDay(filter.from), wholeDay: true });
        if (filter.to)
          items.push({ field, operator: 'le', value: utcDay(filter.to), wholeDay: true });
        break;
    }
  }
  return items;
}

export function buildGridFilter(filters: Record<string, GridFilter>): string {
  return formatFilter(gridFilterItems(filters));
}

export function gridQuery(state: GridState): GridQuery {
  const filter = buildGridFilter(state.filters);
  const search = state.search.trim();
  return {
    page: state.page,
    itemsPerPage: state.pageSize,
    ...(state.sort ? { sort: formatSort([state.sort]) } : {}),
    ...(filter ? { filter } : {}),
    ...(search ? { search } : {}),
  };
}

// --- client-side grids (the users list arrives whole) ----------------------------------------

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true, sensitivity: 'base' });
}

function matches(value: unknown, filter: GridFilter): boolean {
  switch (filter.type) {
    case 'text':
      return String(value ?? '')
        .toLowerCase()
        .includes(filter.value.trim().toLowerCase());
    case 'select':
      return String(value ?? '') === filter.value;
    case 'choices':
      return filter.values.includes(String(value ?? ''));
    case 'number':
      return value !== null && value !== undefined && Number(value) >= filter.value;
    case 'date': {
      if (value === null || value === undefined || value === '') return false;
      const day = new Date(String(value)).toISOString().slice(0, 10);
      return (!filter.from || day >= filter.from) && (!filter.to || day <= filter.to);
    }
  }
}

/**
 * Filters, sorts and pages a whole list the way the server would. `valueOf` reads a record's
 * value of a query field.
 */
export function applyGridState<T>(
  records: readonly T[],
  state: GridState,
  valueOf: (record: T, field: string) => unknown,
): { items: T[]; totalItems: number } {
  const filters = activeFilters(state.filters);
  const filtered = records.filter((record) =>
    filters.every(([field, filter]) => matches(valueOf(record, field), filter)),
  );
  const { sort } = state;
  const sorted = sort
    ? [...filtered].sort((a, b) => {
        const order = compareValues(valueOf(a, sort.field), valueOf(b, sort.field));
        return sort.direction === 'desc' ? -order : order;
      })
    : filtered;
  const start = (state.page - 1) * state.pageSize;
  return { items: sorted.slice(start, start + state.pageSize), totalItems: filtered.length };
}

// --- browser storage -------------------------------------------------------------------------

/** spec 2 "Grids in general": remembered per company and per grid name. */
export function gridStorageKey(companyId: number, gridName: string): string {
  return `ledgerline.grid.${companyId}.${gridName}`;
}

function isGridFilter(value: unknown): value is GridFilter {
  if (typeof value !== 'object' || value === null) return false;
  const filter = value as Record<string, unknown>;
  switch (filter.type) {
    case 'text':
    case 'select':
      return typeof filter.value === 'string';
    case 'choices':
      return Array.isArray(filter.values) && filter.values.every((v) => typeof v === 'string');
    case 'number':
      return typeof filter.value === 'number';
    case 'date':
      return (
        (filter.from === null || typeof filter.from === 'string') &&
        (filter.to === null || typeof filter.to === 'string')
      );
    default:
      return false;
  }
}

function isSort(value: unknown): value is QuerySort {
  if (typeof value !== 'object' || value === null) return false;
  const sort = value as Record<string, unknown>;
  return typeof sort.field === 'string' && (sort.direction === 'asc' || sort.direction === 'desc');
}

/** The stored state, or null when there is none or it is not readable (an older shape). */
export function loadGridState(key: string): GridState | null {
  const text = local.get(key);
  if (!text) return null;
  try {
    const stored = JSON.parse(text) as Record<string, unknown>;
    const { page, pageSize, sort, filters, search } = stored;
    if (!Number.isInteger(page) || (page as number) < 1) return null;
    if (!pageSizeChoices.includes(pageSize as (typeof pageSizeChoices)[number])) return null;
    if (sort !== null && !isSort(sort)) return null;
    if (typeof filters !== 'object' || filters === null) return null;
    const validFilters = Object.fromEntries(
      Object.entries(filters).filter(([, filter]) => isGridFilter(filter)),
    ) as Record<string, GridFilter>;
    return {
      page: page as number,
      pageSize: pageSize as number,
      sort,
      filters: validFilters,
      search: typeof search === 'string' ? search : '',
    };
  } catch {
    return null;
  }
}

export function saveGridState(key: string, state: GridState): void {
  local.set(key, JSON.stringify(state));
}

export function clearGridState(key: string): void {
  local.set(key, null);
}

/** spec 2 "Grids in general": the query parameter that clears the remembered state. */
export const clearGridParam = 'clearGrid';

// --- the address ---------------------------------------------------------

/**
 * A list's view in its address, so it can be shared and survives a reload or Back:
 * `search`, `sort` ('-statusDateTime'), `page`, `pageSize` and one `f.<field>` per filter:
 * `ct:Acme` (text), `eq:Payment` (select), `in:Failed,Rejected` (choices), `ge:100` (number),
 * `day:2024-01-01..2024-01-31` (date range, either end may be empty). Defaults are left out.
 */
export const gridAddressParams = ['search', 'sort', 'page', 'pageSize'] as const;
const filterParamPrefix = 'f.';

function filterToParam(filter: GridFilter): string {
  switch (filter.type) {
    case 'text':
      return `ct:${filter.value}`;
    case 'select':
      return `eq:${filter.value}`;
    case 'choices':
      return `in:${filter.values.join(',')}`;
    case 'number':
      return `ge:${filter.value}`;
    case 'date':
      return `day:${filter.from ?? ''}..${filter.to ?? ''}`;
  }
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

function filterFromParam(text: string): GridFilter | null {
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const kind = text.slice(0, colon);
  const value = text.slice(colon + 1);
  switch (kind) {
    case 'ct':
      return value.trim() ? { type: 'text', value } : null;
    case 'eq':
      return value ? { type: 'select', value } : null;
    case 'in': {
      const values = value.split(',').filter(Boolean);
      return values.length ? { type: 'choices', values } : null;
    }
    case 'ge': {
      const number = Number(value);
      return value.trim() && Number.isFinite(number) ? { type: 'number', value: number } : null;
    }
    case 'day': {
      const [from = '', to = ''] = value.split('..');
      const day = (part: string) => (dayPattern.test(part) ? part : null);
      return day(from) || day(to) ? { type: 'date', from: day(from), to: day(to) } : null;
    }
    default:
      return null;
  }
}

const sortText = (sort: QuerySort | null) =>
  sort ? `${sort.direction === 'desc' ? '-' : ''}${sort.field}` : '';

/** Whether the address carries any of a list's view (then it wins over browser storage). */
export function hasGridAddress(params: URLSearchParams): boolean {
  return [...params.keys()].some(
    (key) =>
      (gridAddressParams as readonly string[]).includes(key) || key.startsWith(filterParamPrefix),
  );
}

/** The view the address describes; what it leaves out is the default. */
export function gridStateFromAddress(
  params: URLSearchParams,
  defaultSort: QuerySort | null,
): GridState {
  const state = defaultGridState(defaultSort);
  state.search = params.get('search') ?? '';
  const sort = params.get('sort');
  if (sort) {
    const descending = sort.startsWith('-');
    const field = descending ? sort.slice(1) : sort;
    if (/^[A-Za-z][A-Za-z0-9]*$/.test(field))
      state.sort = { field, direction: descending ? 'desc' : 'asc' };
  }
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page >= 1) state.page = page;
  const pageSize = Number(params.get('pageSize'));
  if (pageSizeChoices.includes(pageSize as (typeof pageSizeChoices)[number]))
    state.pageSize = pageSize;
  for (const [key, value] of params) {
    if (!key.startsWith(filterParamPrefix)) continue;
    const filter = filterFromParam(value);
    if (filter) state.filters[key.slice(filterParamPrefix.length)] = filter;
  }
  return state;
}

/** The address's parameters with this view written in (other parameters are kept). */
export function withGridAddress(
  params: URLSearchParams,
  state: GridState,
  defaultSort: QuerySort | null,
): URLSearchParams {
  const next = new URLSearchParams();
  for (const [key, value] of params) {
    if (
      !(gridAddressParams as readonly string[]).includes(key) &&
      !key.startsWith(filterParamPrefix)
    )
      next.append(key, value);
  }
  if (state.search.trim()) next.set('search', state.search);
  if (sortText(state.sort) !== sortText(defaultSort) && state.sort)
    next.set('sort', sortText(state.sort));
  if (state.page !== 1) next.set('page', String(state.page));
  if (state.pageSize !== defaultPageSize) next.set('pageSize', String(state.pageSize));
  for (const [field, filter] of activeFilters(state.filters))
    next.set(`${filterParamPrefix}${field}`, filterToParam(filter));
  return next;
}
