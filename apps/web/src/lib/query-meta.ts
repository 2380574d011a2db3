/** Per-query switches read by the global error handling (app/query-client.ts). */
export interface AppQueryMeta extends Record<string, unknown> {
  /**
   * false: a failure of this query is handled where it is used (no error page, no toast). Used
   * by the calls that run before the router exists or whose failure is an answer (404 = no).
   */
  statusRouting?: boolean;
  /**
   * true: the page shows this query's failure itself (spec 2 §8 detail pages: 'Loading Error'),
   * but a 401 still starts the login flow (spec 1 §8).
   */
  inlineErrors?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
  }
}
