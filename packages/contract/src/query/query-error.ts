/** The query parameters a QueryError can name (design §3, spec 1 §7). */
export type QueryParameter =
  | 'filter'
  | 'sort'
  | 'expand'
  | 'page'
  | 'itemsPerPage'
  | 'cursor'
  | 'search';

export interface QueryErrorDetails {
  parameter: QueryParameter;
  /** The offending piece of input as the client sent it (trimmed, shortened when very long). */
  item: string;
  message: string;
}

/**
 * The one error the query language throws. The server turns it into a 400 problem document with
 * `errors: { [parameter]: [message] }`; the site can show `message` as it is.
 */
export class QueryError extends Error {
  readonly parameter: QueryParameter;
  readonly item: string;

  constructor({ parameter, item, message }: QueryErrorDetails) {
    super(message);
    this.name = 'QueryError';
    this.parameter = parameter;
    this.item = item;
  }

  /** The `errors` member of the problem document. */
  toErrors(): Record<string, string[]> {
    return { [this.parameter]: [this.message] };
  }
}

const previewLength = 60;

/** Keeps error messages readable when a client sends a huge parameter. */
export function previewQueryItem(text: string): string {
  return text.length <= previewLength ? text : `${text.slice(0, previewLength)}…`;
}
