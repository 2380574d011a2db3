import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP proxy between the app and PostgreSQL, so a test can take the database away as a network
 * would: cut every open connection, refuse new ones, stall (pass nothing, as a dropped network
 * does before anyone notices), and bring it back. Nothing of the shared server is touched.
 */
export interface TcpProxy {
  port: number;
  /** Ends every open connection at once (a reset, as a dropped network or a crashed server). */
  cut(): void;
  /** New connections are reset as soon as they arrive. */
  refuse(): void;
  /** Open connections stop passing bytes both ways, until cut(); new ones stall too. */
  stall(): void;
  /** Connections pass again. */
  restore(): void;
  /** Connections opened through the proxy so far. */
  opened(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let mode: 'open' | 'refuse' | 'stall' = 'open';
  let opened = 0;
  const server = createServer((client) => {
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    opened++;
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    if (mode === 'stall') pause(pair);
  });
  const pause = ([a, b]: [Socket, Socket]) => {
    a.pause();
    b.pause();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cut = () => {
    for (const [client, upstream] of [...pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port: (server.address() as AddressInfo).port,
    cut,
    refuse() {
      mode = 'refuse';
    },
    stall() {
      mode = 'stall';
      for (const pair of pairs) {
        pair[0].unpipe();
        pair[1].unpipe();
        pause(pair);
      }
    },
    restore() {
      mode = 'open';
    },
    opened: () => opened,
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
