import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * Large downloads (the payment export) made at the database's pace and sent at the client's:
 * a spool file between the two, a watchdog on the sending side, and a bound on how many one
 * tenant runs at once (docs/decisions/097-exports-never-wait-on-the-client.md "Exports never wait on the client").
 */

export interface DownloadLimits {
  /** Whole seconds an export may take, made and sent. */
  deadlineSeconds: number;
  /** Bytes a second a download must keep up, measured over each window. */
  minBytesPerSecond: number;
  windowSeconds: number;
  /** Exports one tenant may run at once in this process. */
  perTenant: number;
  /** Folder of the spool files; the system's temporary folder when unset. */
  spoolDir?: string;
}

/** An export made whole before it is sent: a file that goes when the download ends. */
export interface Spool {
  bytes: number;
  /** The file, once; it is removed when that stream closes. */
  read(): Readable;
  discard(): Promise<void>;
}

/**
 * Runs `write` into a new spool file and answers it once written. `write` gets the file's stream
 * and must end it; a failure removes the file.
 */
export async function spool(
  spoolDir: string | undefined,
  write: (out: Writable) => Promise<void>,
): Promise<Spool> {
  const dir = await mkdtemp(join(spoolDir ?? tmpdir(), 'ledgerline-export-'));
  const discard = () => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'spool');
  const out = createWriteStream(path, { mode: 0o600 });
  try {
    await write(out);
    if (!out.writableEnded) out.end();
    await finished(out);
  } catch (error) {
    out.destroy();
    await discard();
    throw error;
  }
  return {
    bytes: out.bytesWritten,
    read() {
      const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
      stream.once('close', () => void discard());
      return stream;
    },
    discard,
  };
}

/** Writes text or bytes to a stream, waiting while its buffer is full. */
export async function writeOut(out: Writable, chunk: string | Buffer): Promise<void> {
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      out.off('drain', done);
      out.off('error', done);
      out.off('close', closed);
      if (error) reject(error);
      else resolve();
    };
    const closed = () => done(new Error('The spool was closed.'));
    out.on('drain', done);
    out.on('error', done);
    out.on('close', closed);
  });
}

export class DownloadStalled extends Error {}

/**
 * The body of a download, ended with an error (so the connection is closed) when the client
 * takes less than `minBytesPerSecond` over a window, or when `deadlineAt` (epoch ms) passes.
 * Bytes are counted as the connection takes them from the body.
 */
export function watchedDownload(
  source: Readable,
  limits: Pick<DownloadLimits, 'minBytesPerSecond' | 'windowSeconds'> & { deadlineAt: number },
  onStalled: (reason: string) => void = () => undefined,
): Readable {
  let taken = 0;
  let takenAtLastCheck = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      taken += chunk.length;
      done(null, chunk);
    },
  });
  const stop = (reason: string) => {
    onStalled(reason);
    body.destroy(new DownloadStalled(reason));
    source.destroy();
  };
  const windowMs = limits.windowSeconds * 1000;
  const check = setInterval(() => {
    if (Date.now() >= limits.deadlineAt) return stop('the export ran past its deadline');
    if (taken - takenAtLastCheck < limits.minBytesPerSecond * limits.windowSeconds)
      return stop('the client took the export too slowly');
    takenAtLastCheck = taken;
  }, windowMs);
  check.unref();
  const deadline = setTimeout(
    () => stop('the export ran past its deadline'),
    Math.max(0, limits.deadlineAt - Date.now()),
  );
  deadline.unref();
  const settle = () => {
    clearInterval(check);
    clearTimeout(deadline);
  };
  body.once('close', () => {
    settle();
    source.destroy();
  });
  body.once('end', settle);
  source.once('error', (error) => body.destroy(error));
  source.pipe(body);
  return body;
}

/** How many exports each tenant has running in this process. */
export function createDownloadSlots(perTenant: number) {
  const running = new Map<string, number>();
  return {
    perTenant,
    /** A release function, or null when the tenant already runs `perTenant`. */
    take(tenantId: string): (() => void) | null {
      const count = running.get(tenantId) ?? 0;
      if (count >= perTenant) return null;
      running.set(tenantId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(tenantId) ?? 1) - 1;
        if (left <= 0) running.delete(tenantId);
        else running.set(tenantId, left);
      };
    },
  };
}
