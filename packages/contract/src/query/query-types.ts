import type {
  DateOperator,
  EqualityOperator,
  NumberOperator,
  QueryFieldType,
  StringOperator,
} from './filter-operators.js';

interface FieldFlags {
  sortable?: boolean;
  filterable?: boolean;
}

/** One whitelisted field of a resource: its type and what the client may do with it. */
export type QueryFieldSpec =
  | (FieldFlags & { type: Exclude<QueryFieldType, 'enum'> })
  | (FieldFlags & { type: 'enum'; values: readonly [string, ...string[]] });

export type QueryFieldMap = Record<string, QueryFieldSpec>;

// A whitelist typed only as QueryFieldMap (generic server code) allows any string key.
type KeysWhere<F, Flag extends keyof FieldFlags> = string extends keyof F
  ? string
  : { [K in keyof F & string]: F[K] extends Record<Flag, true> ? K : never }[keyof F & string];

export type SortableField<F extends QueryFieldMap> = KeysWhere<F, 'sortable'>;
export type FilterableField<F extends QueryFieldMap> = KeysWhere<F, 'filterable'>;
/** `field` ascending or `-field` descending, as in the `sort` parameter. */
export type SortText<F extends QueryFieldMap> = SortableField<F> | `-${SortableField<F>}`;

export type SortDirection = 'asc' | 'desc';

export interface QuerySort<K extends string = string> {
  field: K;
  direction: SortDirection;
}

/**
 * A parsed filter item with its value already converted. Numbers stay decimal strings so no
 * precision is lost on the way to a numeric(19,4) column. A date without a time (`wholeDay`)
 * stands for that whole UTC day; `value` is then its midnight.
 */
export type QueryFilter<K extends string = string> =
  | { field: K; type: 'string'; operator: StringOperator; value: string }
  | { field: K; type: 'number'; operator: NumberOperator; value: string }
  | { field: K; type: 'date'; operator: DateOperator; value: Date; wholeDay: boolean }
  | { field: K; type: 'day'; operator: DateOperator; value: string }
  | { field: K; type: 'enum' | 'uuid'; operator: EqualityOperator; value: string }
  | { field: K; type: 'boolean'; operator: EqualityOperator; value: boolean };

/**
 * What a list's search box reads: text fields it finds the words in, and the
 * amount field it compares when the words are an amount.
 */
export interface QuerySearchFields<K extends string = string> {
  readonly text: readonly K[];
  readonly amount?: K;
}

/** A parsed `search`: the text as typed, and as an amount when it reads as one ('£1,250.50'). */
export interface QuerySearch<K extends string = string> {
  text: string;
  fields: readonly K[];
  amount?: { field: K; value: string };
}

/** A resource's whitelist, made by defineQueryFields. */
export interface QueryFields<F extends QueryFieldMap = QueryFieldMap, E extends string = string> {
  readonly fields: F;
  readonly defaultSort: readonly QuerySort<SortableField<F>>[];
  readonly expand: readonly E[];
  /** Absent: the list has no search box and refuses `search`. */
  readonly search?: QuerySearchFields<FilterableField<F>>;
}

/** Result of parsePageQuery (design §3 offset paging). */
export interface PageQuery<F extends QueryFieldMap = QueryFieldMap, E extends string = string> {
  page: number;
  itemsPerPage: number;
  sort: QuerySort<SortableField<F>>[];
  filters: QueryFilter<FilterableField<F>>[];
  expand: E[];
  /** The search box's words; absent when empty. */
  search?: QuerySearch<FilterableField<F>>;
}

/** Result of parseCursorQuery (design §3 cursor paging); the order is the resource's default sort. */
export interface CursorQuery<F extends QueryFieldMap = QueryFieldMap> {
  cursor: string | undefined;
  itemsPerPage: number;
  sort: QuerySort<SortableField<F>>[];
  filters: QueryFilter<FilterableField<F>>[];
  /** The search box's words; absent when empty. */
  search?: QuerySearch<FilterableField<F>>;
}
