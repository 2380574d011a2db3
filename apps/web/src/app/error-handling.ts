import type { Query } from '@tanstack/react-query';
import { isApiError } from '@/lib/http';
import { errorMessage, forbiddenMessage, routeForError } from '@/lib/status-routing';

/** What the handling reads of the query that failed. */
type FailedQuery = Pick<Query, 'meta'> & { state: { data: unknown } };

export interface ErrorHandlingDeps {
  /** Router navigation to an error page, with the detail in the location state. */
  navigate: (path: string, detail: string | undefined) => void;
  signIn: () => void;
  notifyError: (message: string) => void;
}

/**
 * spec 1 §8 for the whole site. Page loads (queries) go to the error page of their status; a
 * query that already has data (a background refetch) only shows a toast. Mutations show their
 * own toasts and field errors; here only their 401 starts the login flow.
 */
export function createErrorHandling(deps: ErrorHandlingDeps) {
  return {
    onQueryError(error: Error, query: FailedQuery) {
      if (query.meta?.statusRouting === false) return;
      const route = routeForError(error);
      if (route.kind === 'sign-in') {
        deps.signIn();
        return;
      }
      if (query.meta?.inlineErrors) return;
      if (query.state.data !== undefined) {
        deps.notifyError(route.forbidden ? forbiddenMessage : errorMessage(error));
        return;
      }
      if (route.forbidden) deps.notifyError(forbiddenMessage);
      deps.navigate(route.path, route.detail);
    },
    onMutationError(error: Error) {
      if (isApiError(error) && error.status === 401) deps.signIn();
    },
  };
}
