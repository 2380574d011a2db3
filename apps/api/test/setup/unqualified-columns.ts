import { getTableName, is, SQL } from 'drizzle-orm';
import { PgColumn, PgDialect } from 'drizzle-orm/pg-core';

/**
 * In the select list (or returning list) of a query without joins drizzle writes the columns of a
 * `sql` field without their table. A field naming columns of two tables — a correlated subquery —
 * then compares a table with itself: the access key's company check did exactly that and passed
 * every tenant's company. Every test run refuses that shape wherever a query
 * builds it; `qualified()` in platform/sessions.ts writes such columns out in full.
 */
type BuildSelection = (
  fields: { field: unknown; path: string[] }[],
  config?: { isSingleTable?: boolean },
) => SQL;
const prototype = PgDialect.prototype as unknown as {
  buildSelection: BuildSelection & { checksColumns?: true };
};
// The api project runs its files in one process each worker (isolate: false), and a setup file
// runs again before every file: the check is installed once.
const original = prototype.buildSelection;
if (!original.checksColumns) prototype.buildSelection = checked;

function checked(this: unknown, ...[fields, config = {}]: Parameters<BuildSelection>): SQL {
  if (config.isSingleTable) {
    for (const { field, path } of fields) {
      const query = is(field, SQL.Aliased) ? field.sql : is(field, SQL) ? field : null;
      if (!query) continue;
      const tables = new Set(
        query.queryChunks
          .filter((c) => is(c, PgColumn))
          .map((c) => getTableName((c as PgColumn).table)),
      );
      if (tables.size > 1) {
        throw new Error(
          `The selected field '${path.join('.')}' names columns of ${[...tables].join(' and ')} in a query without joins; drizzle leaves them unqualified, so write them with qualified().`,
        );
      }
    }
  }
  return original.call(this, fields, config);
}
checked.checksColumns = true as const;
