import pg from 'pg';

/**
 * Tenant reads on PostgreSQL without a transaction block (docs/decisions/013-a-read-is-one-round-trip.md "A read is one round
 * trip").
 *
 * Every statement of a read is written to the connection behind a scope statement that sets the
 * application role, the tenant and read-only mode with set_config(..., true), in one write and
 * with one Sync. PostgreSQL runs the messages between two Syncs in one implicit transaction, so
 * the settings hold for exactly that statement and are gone when it ends; if the scope fails, the
 * server skips the statement (it discards everything up to the Sync), so nothing ever runs
 * unscoped. A read that tries to write fails (read-only), and so does one that opens a savepoint
 * (there is no transaction block to hold it).
 *
 * Against BEGIN, scope, statement, COMMIT this saves the COMMIT's round trip and a write and a
 * wake-up on both sides per read. Under READ COMMITTED every statement takes its own snapshot
 * anyway, so a read of several statements sees what it saw before.
 */

export interface ReadScope {
  role: string;
  tenantId: string;
  /** A statement_timeout for this statement only (readWithinBudget). */
  statementTimeoutMs?: number;
}

interface Connection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { text: string; name: string; types: unknown[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[] }): void;
  execute(config: { portal: string }): void;
}

const scopeText =
  `select set_config('role', $1, true), set_config('app.tenant_id', $2, true), ` +
  `set_config('transaction_read_only', 'on', true)`;
const scopeName = 'll_scope';
const budgetedScopeText = `${scopeText}, set_config('statement_timeout', $3, true)`;
const budgetedScopeName = 'll_scope_budgeted';

/** pg's Query as far as this module uses it (its typings declare `submit` as a field). */
interface PgQuery {
  submit(connection: Connection): Error | null;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: Connection): void;
  handleError(error: Error, connection: Connection): void;
}
const PgQuery = pg.Query as unknown as new (config: pg.QueryConfig, values?: unknown[]) => PgQuery;

/**
 * A query that brings its own scope: the scope's Parse (once per connection), Bind and Execute,
 * then the query's own messages and its Sync, in one write. The scope answers (ParseComplete,
 * BindComplete, one DataRow, CommandComplete) before the query's own answers; those are not the
 * query's and are dropped here. It is a pg Query, so pipelining works as for any.
 *
 * pg's client records a named statement as parsed when a ParseComplete arrives for the active
 * query; the scope's own ParseComplete must not count for the query's statement, so the query
 * shows its name to the client only while it is written and once the scope has answered.
 */
class ScopedQuery extends PgQuery {
  declare private statement: string | undefined;
  declare private writing: boolean;
  declare private scopeAnswered: boolean;

  constructor(
    private readonly scope: ReadScope,
    config: pg.QueryConfig,
    values?: unknown[],
  ) {
    super(config, values);
  }

  // pg.Query's constructor assigns `name`; these accessors keep it in `statement`.
  get name(): string | undefined {
    return this.writing || this.scopeAnswered ? this.statement : undefined;
  }

  set name(value: string | undefined) {
    this.statement = value;
  }

  /** The scope statement: with a statement_timeout when the query has a time budget. */
  private get scopeStatement(): { name: string; text: string } {
    return this.scope.statementTimeoutMs === undefined
      ? { name: scopeName, text: scopeText }
      : { name: budgetedScopeName, text: budgetedScopeText };
  }

  override submit(connection: Connection): Error | null {
    const { name, text } = this.scopeStatement;
    // Held until the turn ends: the scope, the query and their Sync leave in one write.
    holdUntilTurnEnds(connection.stream);
    this.writing = true;
    try {
      if (
        (connection.parsedStatements[name] ?? connection.submittedNamedStatements[name]) ===
        undefined
      ) {
        connection.parse({ text, name, types: [] });
        connection.submittedNamedStatements[name] = text;
      }
      const values = [this.scope.role, this.scope.tenantId];
      if (this.scope.statementTimeoutMs !== undefined)
        values.push(String(Math.max(1, Math.round(this.scope.statementTimeoutMs!))));
      connection.bind({ portal: '', statement: name, values });
      connection.execute({ portal: '' });
      return super.submit(connection);
    } finally {
      this.writing = false;
    }
  }

  override handleDataRow(message: unknown): void {
    if (this.scopeAnswered) super.handleDataRow(message);
  }

  override handleCommandComplete(message: unknown, connection: Connection): void {
    if (this.scopeAnswered) {
      super.handleCommandComplete(message, connection);
      return;
    }
    this.scopeAnswered = true;
    // The scope statement is now known to the server on this connection.
    const { name, text } = this.scopeStatement;
    connection.parsedStatements[name] = text;
    delete connection.submittedNamedStatements[name];
  }

  override handleError(error: Error, connection: Connection): void {
    if (!this.scopeAnswered) {
      // The server skipped everything up to the Sync: neither statement may count as parsed.
      delete connection.submittedNamedStatements[scopeName];
      delete connection.submittedNamedStatements[budgetedScopeName];
      if (this.statement) delete connection.submittedNamedStatements[this.statement];
    }
    super.handleError(error, connection);
  }
}

/** Named statements one connection keeps at most; reads past it run unnamed (parsed each time). */
export const namedStatementsPerConnection = 200;
const statementNames = new Map<string, string>();
const namedOnConnection = new WeakMap<object, Set<string>>();
let lastStatementName = 0;

/**
 * The name a SELECT runs under on this connection, or undefined to run it unnamed. A named
 * statement is parsed once per connection. PostgreSQL may still plan it on every run: a list's
 * generic plan cannot know its LIMIT and costs more than a custom one, so it keeps custom plans.
 * The same text always has the same name in this process, so a connection never meets a name
 * with another text.
 */
export function statementName(client: object, text: string): string | undefined {
  // Any whitespace after the keyword: a statement written over several lines starts 'select\n'.
  if (!/^select\s/.test(text)) return undefined;
  let known = namedOnConnection.get(client);
  if (!known) namedOnConnection.set(client, (known = new Set()));
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `ll_${++lastStatementName}`;
    if (statementNames.size >= 10_000) statementNames.clear();
    statementNames.set(text, name);
  }
  if (known.has(name)) return name;
  if (known.size >= namedStatementsPerConnection) return undefined;
  known.add(name);
  return name;
}

/** What a read's session sends its queries through (drizzle calls `query` and nothing else). */
export interface ScopedReadClient {
  query(config: pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult>;
  /** One statement under its own statement_timeout. */
  queryWithin(
    config: pg.QueryConfig,
    values: unknown[] | undefined,
    timeoutMs: number,
  ): Promise<pg.QueryResult>;
}

/**
 * Keeps what is written to a connection until the current turn of the event loop ends: the
 * statements of every read that starts in this turn (several calls arrive together under load)
 * leave in one write and are answered in one read. Only the batching changes, never the order.
 */
export function holdUntilTurnEnds(stream: Connection['stream']): void {
  if (!stream.cork || !stream.uncork || held.has(stream)) return;
  held.add(stream);
  stream.cork();
  setImmediate(() => {
    held.delete(stream);
    stream.uncork!();
  });
}
const held = new WeakSet<object>();

/** A connection that reads share; `inFlight` counts the statements sent and not yet answered. */
export interface ReadConnection {
  client: pg.Client;
  inFlight: number;
}

/**
 * The connections reads run on. A read needs no connection of its own, since each statement
 * carries its own scope and ends its own implicit transaction: reads share a few pipelined
 * connections, each read going to the one with the fewest statements in flight, and a connection
 * is opened when every open one is busy, up to `size`. One that fails is dropped (its statements
 * fail) and replaced when next needed. Nothing but scoped reads ever runs on them.
 */
export function createReadConnections(open: () => pg.Client, size: number) {
  const connections: ReadConnection[] = [];
  let closing = false;

  function add(): ReadConnection {
    const client = open();
    const connection: ReadConnection = { client, inFlight: 0 };
    const drop = () => {
      const index = connections.indexOf(connection);
      if (index >= 0) connections.splice(index, 1);
    };
    client.on('error', drop);
    client.on('end', drop);
    client.connect().catch(drop);
    connections.push(connection);
    return connection;
  }

  return {
    pick(): ReadConnection {
      if (closing) throw new Error('The database is closing.');
      let best: ReadConnection | undefined;
      for (const connection of connections) {
        if (!best || connection.inFlight < best.inFlight) best = connection;
      }
      if (!best || (best.inFlight > 0 && connections.length < size)) return add();
      return best;
    },
    async close() {
      closing = true;
      await Promise.all(
        connections.splice(0).map(({ client }) => client.end().catch(() => undefined)),
      );
    },
  };
}

export function scopedReadClient(connection: ReadConnection, scope: ReadScope): ScopedReadClient {
  const { client } = connection;
  const send = (config: pg.QueryConfig, values: unknown[] | undefined, timeoutMs?: number) => {
    const name = config.name ?? statementName(client, config.text);
    const query = new ScopedQuery(
      timeoutMs === undefined ? scope : { ...scope, statementTimeoutMs: timeoutMs },
      name === undefined ? config : { ...config, name },
      values ?? (config.values as unknown[] | undefined),
    );
    connection.inFlight++;
    return new Promise<pg.QueryResult>((resolve, reject) => {
      (
        query as unknown as { callback(error: Error | null, result: pg.QueryResult): void }
      ).callback = (error, result) => {
        connection.inFlight--;
        if (error) reject(error);
        else resolve(result);
      };
      client.query(query as unknown as pg.Submittable);
    });
  };
  return {
    query: (config, values) => send(config, values),
    queryWithin: (config, values, timeoutMs) => send(config, values, timeoutMs),
  };
}
