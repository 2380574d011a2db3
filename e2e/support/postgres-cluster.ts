import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL primary with a streaming standby, and pgbouncer in front of the primary, in a
 * temporary folder with ports of their own (the replica journeys, docs/decisions/157-reads-on-standbys.md "Reads on
 * standbys"): Debian's own binaries (initdb, pg_ctl, pg_basebackup -R, pgbouncer), run as the
 * postgres user when the journey runs as root, without systemd; everything goes when stopped.
 */

function binaries(): string {
  const explicit = process.env.PG_BINDIR;
  if (explicit) return explicit;
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  throw new Error(
    'PostgreSQL server binaries were not found (Debian: apt-get install postgresql).',
  );
}

const asRoot = userInfo().uid === 0;

/** Runs a PostgreSQL tool, as the postgres user when this process is root (initdb refuses root). */
function run(command: string, args: string[]): string {
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function owned(path: string): void {
  if (!asRoot) return;
  const { uid, gid } = postgresUser();
  chownSync(path, uid, gid);
}

function postgresUser(): { uid: number; gid: number } {
  const line = execFileSync('id', ['postgres'], { encoding: 'utf8' });
  return {
    uid: Number(/uid=(\d+)/.exec(line)![1]),
    gid: Number(/gid=(\d+)/.exec(line)![1]),
  };
}

export interface ReplicatedPostgres {
  primaryUrl(database?: string): string;
  standbyUrl(database?: string): string;
  primaryPort: number;
  standbyPort: number;
  /** Stops the standby at once, as a crash would. */
  stopStandby(): void;
  startStandby(): void;
  /** Runs SQL on the primary (or the standby). */
  query<T extends pg.QueryResultRow>(
    text: string,
    on?: 'primary' | 'standby',
    database?: string,
  ): Promise<T[]>;
  /** Waits until the standby has replayed everything the primary wrote so far. */
  caughtUp(database?: string): Promise<void>;
  stop(): void;
}

export async function startReplicatedPostgres(ports: {
  primary: number;
  standby: number;
}): Promise<ReplicatedPostgres> {
  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-replicas-'));
  owned(dir);
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const start = (data: string, port: number, log: string, extra: string[] = []) =>
    run(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, log),
      '-w',
      '-o',
      [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        // A journey's cluster: durability is not what it tests.
        '-c fsync=off',
        '-c shared_buffers=32MB',
        '-c max_connections=100',
        ...extra,
      ].join(' '),
      'start',
    ]);
  const stopAt = (data: string) => {
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Not running.
    }
  };

  run(join(bin, 'initdb'), ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  writeFileSync(
    join(primaryDir, 'pg_hba.conf'),
    [
      'local all all trust',
      'host all all 127.0.0.1/32 trust',
      // The standby's WAL stream.
      'host replication all 127.0.0.1/32 trust',
      '',
    ].join('\n'),
  );
  start(primaryDir, ports.primary, 'primary.log', ['-c wal_level=replica', '-c max_wal_senders=4']);
  // The standby: a base backup of the primary with its standby.signal and primary_conninfo (-R).
  run(join(bin, 'pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(ports.primary),
    '-U',
    'postgres',
    '-D',
    standbyDir,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  // pg_stat_statements: the journey counts the statements the standby runs.
  const startStandby = () =>
    start(standbyDir, ports.standby, 'standby.log', [
      '-c hot_standby=on',
      '-c shared_preload_libraries=pg_stat_statements',
    ]);
  startStandby();

  const url = (port: number, database = 'postgres') =>
    `postgres://postgres@127.0.0.1:${port}/${database}`;
  const query = async <T extends pg.QueryResultRow>(
    text: string,
    on: 'primary' | 'standby' = 'primary',
    database = 'postgres',
  ) => {
    const client = new pg.Client({
      connectionString: url(on === 'primary' ? ports.primary : ports.standby, database),
    });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };

  return {
    primaryPort: ports.primary,
    standbyPort: ports.standby,
    primaryUrl: (database) => url(ports.primary, database),
    standbyUrl: (database) => url(ports.standby, database),
    stopStandby: () => stopAt(standbyDir),
    startStandby,
    query,
    async caughtUp(database = 'postgres') {
      const [current] = await query<{ lsn: string }>(
        'select pg_current_wal_insert_lsn()::text as lsn',
        'primary',
        database,
      );
      const lsn = current!.lsn;
      for (let i = 0; i < 100; i++) {
        const [answer] = await query<{ done: boolean }>(
          `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`,
          'standby',
          database,
        );
        if (answer?.done) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('The standby did not catch up.');
    },
    stop() {
      stopAt(standbyDir);
      stopAt(primaryDir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function pgbouncerPath(): string {
  const path = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';
  if (!existsSync(path))
    throw new Error(
      `pgbouncer was not found at ${path}. Install it (Debian: apt-get install pgbouncer) or set PGBOUNCER_PATH.`,
    );
  return path;
}

export interface RunningPgbouncer {
  url(database: string): string;
  /** SHOW POOLS and friends, on pgbouncer's admin console. */
  admin<T extends pg.QueryResultRow>(command: string): Promise<T[]>;
  output(): string;
  stop(): Promise<void>;
}

/** Debian's pgbouncer in transaction pooling mode in front of a server on 127.0.0.1. */
export async function startPgbouncer(
  port: number,
  serverPort: number,
  poolSize = 10,
): Promise<RunningPgbouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-pgbouncer-'));
  owned(dir);
  const users = join(dir, 'users.txt');
  writeFileSync(users, '"postgres" ""\n');
  owned(users);
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(
    config,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${serverPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      'max_client_conn = 500',
      `default_pool_size = ${poolSize}`,
      '',
    ].join('\n'),
  );
  owned(config);
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', pgbouncerPath(), config]]
    : [pgbouncerPath(), [config]];
  const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  for (let i = 0; ; i++) {
    try {
      const client = new pg.Client({ connectionString: url('pgbouncer') });
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      if (i > 50 || child.exitCode !== null)
        throw new Error(`pgbouncer did not start: ${String(error)}\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    async admin<T extends pg.QueryResultRow>(command: string) {
      // The admin console speaks the simple protocol only.
      const client = new pg.Client({ connectionString: url('pgbouncer') });
      await client.connect();
      try {
        const result = (await client.query({ text: command, queryMode: 'simple' } as never)) as {
          rows: T[];
        };
        return result.rows;
      } finally {
        await client.end();
      }
    },
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
