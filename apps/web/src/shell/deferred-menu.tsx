import { cloneElement, useState, type ComponentType, type ReactElement } from 'react';

/** What a top-bar menu's loaded part receives: the button it opens from. */
export interface LoadedMenuProps {
  target: ReactElement;
  /** True when a click on the button asked for the menu before it had loaded. */
  defaultOpened: boolean;
}

/**
 * A top-bar menu whose menu part (Mantine's Menu with Popover and floating-ui, about 20 KB of
 * gzipped JavaScript) loads on first use, not with the first screen (docs/decisions/085-first-load-under-170-kb.md "First load
 * under 170 KB"). Until then its button stands alone, marked as opening a menu: pointing at it or
 * focusing it fetches the menu, a click opens the menu as soon as it has loaded. From then on the
 * loaded menu is the button's.
 */
export function DeferredMenu({
  target,
  load,
}: {
  target: ReactElement<Record<string, unknown>>;
  load: () => Promise<ComponentType<LoadedMenuProps>>;
}) {
  const [Loaded, setLoaded] = useState<ComponentType<LoadedMenuProps> | null>(null);
  const [opening, setOpening] = useState(false);

  if (Loaded) return <Loaded target={target} defaultOpened={opening} />;

  // The module is fetched once: a second import() answers from the module map.
  const fetchMenu = () => void load().catch(() => undefined);
  const open = () => {
    setOpening(true);
    // A menu that could not load (the network dropped) leaves the button as it was, to try again.
    void load().then(
      (component) => setLoaded(() => component),
      () => setOpening(false),
    );
  };
  return cloneElement(target, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: fetchMenu,
    onFocus: fetchMenu,
    onClick: open,
  });
}
