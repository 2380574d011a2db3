/**
 * Whether the toast list is wanted yet (app/deferred-overlays.tsx mounts it then): the first
 * toast asks for it. Kept apart from ui/toasts.tsx so that the first load does not carry it.
 */
let wanted = false;
const listeners = new Set<() => void>();

export function wantToasts(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export function subscribeToToastsWanted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const areToastsWanted = (): boolean => wanted;
