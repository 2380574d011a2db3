import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function haproxyPath(): string {
  const path = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
  if (!existsSync(path)) {
    throw new Error(
      `HAProxy was not found at ${path}. Install it (Debian/Ubuntu: apt-get install haproxy) ` +
        'or set HAPROXY_PATH to its executable.',
    );
  }
  return path;
}

export interface RunningHaproxy {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Debian's HAProxy in front of API processes, round robin per request, each answer marked with
 * the process that gave it (X-Ledgerline-Backend: the server's name). A process that stops
 * answering /api/health leaves the rotation within a second; a request whose connection was
 * refused is sent to the other one.
 */
export async function startHaproxy(
  port: number,
  backends: { name: string; port: number }[],
): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-haproxy-'));
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 1000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  retries 2',
      '  option redispatch',
      'frontend ledgerline',
      `  bind 127.0.0.1:${port}`,
      '  option forwardfor',
      '  default_backend api',
      'backend api',
      '  balance roundrobin',
      '  option httpchk GET /api/health',
      '  http-response set-header X-Ledgerline-Backend %s',
      ...backends.map(
        (b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 500ms fall 2 rise 2`,
      ),
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(haproxyPath(), ['-db', '-f', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited:\n${output}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
