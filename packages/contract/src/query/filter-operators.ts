/** spec 2 §7, plus enum, uuid and boolean fields, which only compare for equality. */
export const filterOperatorsByType = {
  string: ['ct', 'nct', 'sw', 'ew', 'eq', 'neq'],
  number: ['eq', 'neq', 'gt', 'ge', 'lt', 'le'],
  date: ['eq', 'neq', 'gt', 'ge', 'lt', 'le'],
  /** A calendar day (a SQL `date`): compared as a day, never as an instant. */
  day: ['eq', 'neq', 'gt', 'ge', 'lt', 'le'],
  enum: ['eq', 'neq'],
  uuid: ['eq', 'neq'],
  boolean: ['eq', 'neq'],
} as const;

export type QueryFieldType = keyof typeof filterOperatorsByType;
export const queryFieldTypes = Object.keys(filterOperatorsByType) as QueryFieldType[];

export type StringOperator = (typeof filterOperatorsByType.string)[number];
export type NumberOperator = (typeof filterOperatorsByType.number)[number];
export type DateOperator = (typeof filterOperatorsByType.date)[number];
export type EqualityOperator = 'eq' | 'neq';
export type FilterOperator = StringOperator | NumberOperator;

export const filterOperators: readonly FilterOperator[] = [
  'ct',
  'nct',
  'sw',
  'ew',
  'eq',
  'neq',
  'gt',
  'ge',
  'lt',
  'le',
];

export function isFilterOperator(text: string): text is FilterOperator {
  return (filterOperators as readonly string[]).includes(text);
}

export function isOperatorAllowed(type: QueryFieldType, operator: FilterOperator): boolean {
  return (filterOperatorsByType[type] as readonly string[]).includes(operator);
}
