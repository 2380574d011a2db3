import type { QuerySort } from '@ledgerline/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCompanyId } from '@/lib/company';
import {
  clearGridParam,
  clearGridState,
  defaultGridState,
  gridQuery,
  gridStateFromAddress,
  gridStorageKey,
  hasGridAddress,
  loadGridState,
  saveGridState,
  withGridAddress,
  type GridFilter,
  type GridQuery,
  type GridState,
} from './grid-state';

export interface GridStateOptions {
  /** spec 2 "Grids in general" grid name ('users', 'companies'); without one nothing is stored. */
  name?: string;
  defaultSort?: QuerySort | null;
  /**
   * The page's one list keeps its view in the address too, so it can be shared
   * and survives a reload or Back; an address that carries a view wins over browser storage.
   * Not for a grid that shares its page with others (an account's tabs).
   */
  address?: boolean;
}

export interface GridController {
  state: GridState;
  /** The paging parameters for a server-paged call (spec 1 §7). */
  query: GridQuery;
  setPage: (page: number) => void;
  setPageSize: (pageSize: number) => void;
  setSort: (sort: QuerySort) => void;
  /** Sets (or, with null, removes) the filter of one query field; back to page 1. */
  setFilter: (field: string, filter: GridFilter | null) => void;
  /** The search box's words; back to page 1. */
  setSearch: (search: string) => void;
}

/**
 * A grid's filters, sort, page and page size, remembered in browser storage per company and grid
 * name. A `clearGrid` query parameter starts from the defaults (and is then removed).
 */
export function useGridState({
  name,
  defaultSort = null,
  address = false,
}: GridStateOptions = {}): GridController {
  const companyId = useCompanyId();
  const [searchParams, setSearchParams] = useSearchParams();
  const storageKey = name ? gridStorageKey(companyId, name) : null;
  const clearRequested = searchParams.has(clearGridParam);

  const [state, setState] = useState<GridState>(() => {
    if (clearRequested) {
      if (storageKey) clearGridState(storageKey);
      return defaultGridState(defaultSort);
    }
    if (address && hasGridAddress(searchParams))
      return gridStateFromAddress(searchParams, defaultSort);
    if (!storageKey) return defaultGridState(defaultSort);
    return loadGridState(storageKey) ?? defaultGridState(defaultSort);
  });

  // The address changed under the list (a link to the same list with another view, Back within
  // it): the list follows. Our own writes below are recognised and not read back — all the recent
  // ones, not only the last: two quick changes (a filter applied, then the page reset) write two
  // addresses, and the first arriving after the second was written must not put the first back.
  const addressText = searchParams.toString();
  const written = useRef<string[]>([addressText]);
  useEffect(() => {
    if (!address || clearRequested) return;
    if (written.current.includes(addressText)) {
      // Caught up with the last write: earlier ones are no longer expected.
      if (addressText === written.current.at(-1)) written.current = [addressText];
      return;
    }
    const params = new URLSearchParams(addressText);
    const current = withGridAddress(params, state, defaultSort).toString();
    if (current === addressText) return;
    written.current = [addressText];
    setState(gridStateFromAddress(params, defaultSort));
    // Only a change of the address is followed here; the state's own changes are written below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [address, addressText]);

  // The latest address, read when the state changes (not a dependency: a change of the address
  // alone is followed above, and writing then would put the old view back).
  const latestAddress = useRef(addressText);
  latestAddress.current = addressText;
  useEffect(() => {
    if (!address || clearRequested) return;
    const next = withGridAddress(new URLSearchParams(latestAddress.current), state, defaultSort);
    const text = next.toString();
    written.current = [...written.current.slice(-9), text];
    // Unchanged: no navigation (each one makes a new location, and would come round again).
    if (text === latestAddress.current) return;
    setSearchParams(next, { replace: true });
    // defaultSort is the page's constant; setSearchParams changes with every location.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [address, clearRequested, state]);

  useEffect(() => {
    if (!clearRequested) return;
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.delete(clearGridParam);
        return next;
      },
      { replace: true },
    );
  }, [clearRequested, setSearchParams]);

  useEffect(() => {
    if (storageKey) saveGridState(storageKey, state);
  }, [storageKey, state]);

  const setPage = useCallback((page: number) => setState((s) => ({ ...s, page })), []);
  const setPageSize = useCallback(
    (pageSize: number) => setState((s) => ({ ...s, pageSize, page: 1 })),
    [],
  );
  const setSort = useCallback((sort: QuerySort) => setState((s) => ({ ...s, sort, page: 1 })), []);
  const setFilter = useCallback(
    (field: string, filter: GridFilter | null) =>
      setState((s) => {
        const filters = { ...s.filters };
        if (filter) filters[field] = filter;
        else delete filters[field];
        return { ...s, filters, page: 1 };
      }),
    [],
  );

  const setSearch = useCallback(
    (search: string) => setState((s) => (s.search === search ? s : { ...s, search, page: 1 })),
    [],
  );

  const query = useMemo(() => gridQuery(state), [state]);
  return { state, query, setPage, setPageSize, setSort, setFilter, setSearch };
}
