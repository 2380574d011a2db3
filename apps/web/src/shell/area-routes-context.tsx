import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { AreaRoute } from './area-route';

interface AreaRoutes {
  routes: readonly AreaRoute[];
  byPath: ReadonlyMap<string, AreaRoute>;
}

const AreaRoutesContext = createContext<AreaRoutes>({ routes: [], byPath: new Map() });

export function AreaRoutesProvider({
  routes,
  children,
}: {
  routes: readonly AreaRoute[];
  children: ReactNode;
}) {
  const value = useMemo(
    () => ({ routes, byPath: new Map(routes.map((route) => [route.path, route])) }),
    [routes],
  );
  return <AreaRoutesContext.Provider value={value}>{children}</AreaRoutesContext.Provider>;
}

/** The registered screens: the menu and the company dropdown link only to these. */
export function useAreaRoutes(): AreaRoutes {
  return useContext(AreaRoutesContext);
}
