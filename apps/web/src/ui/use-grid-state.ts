import type { QuerySort } from '@ledgerline/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCompanyId } from '@/lib/company';
import {
  clearGridParam,
  clearGridState,
  defaultGridState,
  gridQuery,
  gridStorageKey,
  loadGridState,
  saveGridState,
  type GridFilter,
  type GridQuery,
  type GridState,
} from './grid-state';

export interface GridStateOptions {
  /** spec 2 "Grids in general" grid name ('users', 'companies'); without one nothing is stored. */
  name?: string;
  defaultSort?: QuerySort | null;
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
}

/**
 * A grid's filters, sort, page and page size, remembered in browser storage per company and grid
 * name. A `clearGrid` query parameter starts from the defaults (and is then removed).
 */
export function useGridState({ name, defaultSort = null }: GridStateOptions = {}): GridController {
  const companyId = useCompanyId();
  const [searchParams, setSearchParams] = useSearchParams();
  const storageKey = name ? gridStorageKey(companyId, name) : null;
  const clearRequested = searchParams.has(clearGridParam);

  const [state, setState] = useState<GridState>(() => {
    if (!storageKey) return defaultGridState(defaultSort);
    if (clearRequested) {
      clearGridState(storageKey);
      return defaultGridState(defaultSort);
    }
    return loadGridState(storageKey) ?? defaultGridState(defaultSort);
  });

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

  const query = useMemo(() => gridQuery(state), [state]);
  return { state, query, setPage, setPageSize, setSort, setFilter };
}
