import type {
  FilterableField,
  QueryFieldMap,
  QuerySearchFields,
  QueryFields,
  QuerySort,
  SortableField,
  SortText,
} from './query-types.js';

export interface QueryFieldOptions<F extends QueryFieldMap, E extends string> {
  /** spec 2 §9 default sorts, e.g. '-statusDateTime'; used when the client sends no sort. */
  defaultSort: SortText<F> | readonly SortText<F>[];
  /** Lower-case names the `expand` parameter may carry. */
  expand?: readonly E[];
  /** What the list's search box reads: filterable string fields and an amount. */
  search?: QuerySearchFields<FilterableField<F>>;
}

const fieldNamePattern = /^[A-Za-z][A-Za-z0-9]*$/;
const expandNamePattern = /^[a-z][a-z0-9]*$/;

/**
 * Declares a resource's query whitelist once, in the contract, so the site builds only filters
 * the server accepts. Field names match case-insensitively when parsed (the site sends
 * `Status eq Paid`), so two keys differing only in case are refused here.
 */
export function defineQueryFields<const F extends QueryFieldMap, const E extends string = never>(
  fields: F,
  options: QueryFieldOptions<F, E>,
): QueryFields<F, E> {
  const seen = new Set<string>();
  for (const [name, spec] of Object.entries(fields)) {
    if (!fieldNamePattern.test(name))
      throw new Error(`Query field name '${name}' is not a plain identifier.`);
    if (seen.has(name.toLowerCase())) throw new Error(`Query field '${name}' is declared twice.`);
    seen.add(name.toLowerCase());
    if (spec.type === 'enum' && spec.values.length === 0)
      throw new Error(`Enum field '${name}' has no values.`);
  }
  const sortTexts: readonly string[] =
    typeof options.defaultSort === 'string' ? [options.defaultSort] : options.defaultSort;
  const defaultSort = sortTexts.map((text): QuerySort<SortableField<F>> => {
    const descending = text.startsWith('-');
    const field = descending ? text.slice(1) : text;
    if (!fields[field]?.sortable) throw new Error(`Default sort field '${field}' is not sortable.`);
    return { field: field as SortableField<F>, direction: descending ? 'desc' : 'asc' };
  });
  const expand = options.expand ?? [];
  for (const name of expand) {
    if (!expandNamePattern.test(name)) throw new Error(`Expand name '${name}' must be lower case.`);
  }
  const search = options.search;
  if (search) {
    for (const name of search.text) {
      if (fields[name]?.type !== 'string' || !fields[name]?.filterable)
        throw new Error(`Search field '${name}' is not a filterable string.`);
    }
    if (search.amount !== undefined) {
      const amount = fields[search.amount];
      if (amount?.type !== 'number' || !amount.filterable)
        throw new Error(`Search amount '${search.amount}' is not a filterable number.`);
    }
  }
  return Object.freeze({
    fields,
    defaultSort,
    expand,
    ...(search ? { search } : {}),
  });
}

/** Case-insensitive lookup of a client-sent field name; undefined when it is not whitelisted. */
export function findQueryField(fields: QueryFieldMap, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.keys(fields).find((key) => key.toLowerCase() === wanted);
}
