import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverEntry = join(root, 'apps/api/dist/server.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  output(): string;
  process: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts the server again on the same data folder and port. */
  restart(): Promise<RunningServer>;
  dispose(): Promise<void>;
}

export interface StartOptions {
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
  /** Resolve once the process exits instead of waiting for it to listen. */
  expectExit?: boolean;
}

/** The built product (`npm start` without the build step) on a fresh data folder and a free port. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ledgerline-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const adminEmail = 'admin@ledgerline.local';
  const adminPassword = 'correct-horse-battery';
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const server: RunningServer = {
    url,
    port,
    dataDir,
    adminEmail,
    adminPassword,
    output: () => output,
    process: child,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    restart: () => startServer({ ...options, dataDir, port }),
    async dispose() {
      await server.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (options.expectExit) {
    await exited;
    return server;
  }
  // A loaded machine (several test runs at once) may need longer: E2E_SERVER_START_SECONDS.
  const deadline = Date.now() + Number(process.env.E2E_SERVER_START_SECONDS ?? 60) * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (output.includes('Ledgerline is running at')) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop('SIGKILL');
  throw new Error(`server did not start in time:\n${output}`);
}
