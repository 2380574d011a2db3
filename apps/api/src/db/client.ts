// The database as the rest of the server sees it: one Database interface on PGlite (db/pglite.ts)
// or on PostgreSQL (db/postgres.ts), and the helpers every feature uses with it.
export {
  appRole,
  cancelsStatements,
  isQueryCanceled,
  tenantOf,
  type Database,
  type Db,
  type Executor,
  type RawClient,
  type Schema,
  type Tx,
} from './database.js';
export { openPglite, type PgliteOptions } from './pglite.js';
export { defaultConnectionTimeouts, type PostgresOptions } from './postgres-connections.js';
export { openPostgres } from './postgres.js';
export { readWithinBudget } from './read-budget.js';
