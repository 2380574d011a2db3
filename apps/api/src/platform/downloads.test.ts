import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createDownloadSlots, DownloadStalled, spool, watchedDownload } from './downloads.js';

/** A source that never ends: 1 KB whenever asked, on the next turn of the event loop. */
const endless = () =>
  new Readable({
    read() {
      setImmediate(() => this.push(Buffer.alloc(1024, 0x61)));
    },
  });

const failureOf = (body: Readable) =>
  new Promise<Error | undefined>((resolve) => {
    body.on('error', resolve);
    body.on('end', () => resolve(undefined));
  });

describe('watchedDownload', () => {
  it('ends a download that runs past its deadline, however fast it is taken', async () => {
    const started = Date.now();
    const body = watchedDownload(endless(), {
      minBytesPerSecond: 0,
      windowSeconds: 60,
      deadlineAt: started + 300,
    });
    body.resume();
    const error = await failureOf(body);
    expect(error).toBeInstanceOf(DownloadStalled);
    expect(error!.message).toBe('the export ran past its deadline');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('ends a download taken more slowly than the minimum over a window', async () => {
    const reasons: string[] = [];
    const body = watchedDownload(
      endless(),
      { minBytesPerSecond: 1_000_000, windowSeconds: 1, deadlineAt: Date.now() + 60_000 },
      (reason) => reasons.push(reason),
    );
    // Nobody reads: only the buffers fill.
    const error = await failureOf(body);
    expect(error).toBeInstanceOf(DownloadStalled);
    expect(reasons).toEqual(['the client took the export too slowly']);
  });

  it('lets a download that keeps up finish', async () => {
    const source = Readable.from([Buffer.alloc(5000), Buffer.alloc(5000)]);
    const body = watchedDownload(source, {
      minBytesPerSecond: 1,
      windowSeconds: 1,
      deadlineAt: Date.now() + 5000,
    });
    let bytes = 0;
    body.on('data', (chunk: Buffer) => (bytes += chunk.length));
    expect(await failureOf(body)).toBeUndefined();
    expect(bytes).toBe(10_000);
  });
});

describe('spool', () => {
  it('keeps what was written until the one read of it closes, and removes it on failure', async () => {
    const made = await spool(undefined, async (out) => {
      out.write('a,b\r\n');
      out.end('c,d\r\n');
    });
    expect(made.bytes).toBe(10);
    let text = '';
    for await (const chunk of made.read()) text += String(chunk);
    expect(text).toBe('a,b\r\nc,d\r\n');
    await expect(
      spool(undefined, async () => {
        throw new Error('the database went away');
      }),
    ).rejects.toThrow('the database went away');
  });
});

describe('createDownloadSlots', () => {
  it('gives each tenant its own count, freed once per release', () => {
    const slots = createDownloadSlots(2);
    const first = slots.take('a')!;
    expect(slots.take('a')).not.toBeNull();
    expect(slots.take('a')).toBeNull();
    expect(slots.take('b')).not.toBeNull();
    first();
    first();
    expect(slots.take('a')).not.toBeNull();
    expect(slots.take('a')).toBeNull();
  });
});
