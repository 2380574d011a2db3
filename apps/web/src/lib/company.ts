import { useSyncExternalStore } from 'react';
import { getCompanyId, subscribeCompanyId } from './storage';

/** The stored company (dataset) id, re-rendering when it changes. */
export function useCompanyId(): number {
  return useSyncExternalStore(subscribeCompanyId, getCompanyId);
}
