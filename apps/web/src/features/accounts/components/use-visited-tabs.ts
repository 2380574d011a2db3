import { useState } from 'react';

/** spec 2 §2: tabs other than the first load only when first opened, and stay loaded after. */
export function useVisitedTabs<T extends string>(first: T) {
  const [active, setActive] = useState<T>(first);
  const [visited, setVisited] = useState<ReadonlySet<T>>(() => new Set([first]));
  return {
    active,
    open: (tab: T) => {
      setActive(tab);
      setVisited((seen) => (seen.has(tab) ? seen : new Set([...seen, tab])));
    },
    visited: (tab: T) => visited.has(tab),
  };
}
