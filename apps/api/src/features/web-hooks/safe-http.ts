import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a web hook must not reach unless the operator allows it (WEBHOOK_ALLOW_PRIVATE):
 * private, loopback, link-local (169.254.169.254 is the cloud metadata service), unique-local,
 * carrier-grade NAT, multicast and reserved ranges (RFC 6890).
 */
const forbidden = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  forbidden.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  forbidden.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is private, loopback, link-local or otherwise not of the public internet. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, 'ipv4');
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address to check.
  const mapped =
    /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(lower);
  if (mapped) {
    if (mapped[1]) return forbidden.check(mapped[1], 'ipv4');
    const high = parseInt(mapped[2]!, 16);
    const low = parseInt(mapped[3]!, 16);
    return forbidden.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return forbidden.check(address, 'ipv6');
}

export const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export class RefusedAddressError extends Error {
  constructor(host: string, address: string) {
    super(
      `${host} resolves to ${address}, a private or reserved address; web hooks are not sent there.`,
    );
    this.name = 'RefusedAddressError';
  }
}

/**
 * The resolver the socket connects with: every address the name resolves to is checked, so the
 * check holds for the address actually connected to (a DNS rebind between a check and the
 * connection cannot pass).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate
        ? undefined
        : addresses.find((a) => isForbiddenAddress(a.address));
      if (refused) return callback(new RefusedAddressError(hostname, refused.address), '', 0);
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  /** Why there was no answer: refused address, timeout, connection error. */
  error: string | null;
}

/**
 * POSTs a web hook: one request, no redirects followed (a 3xx is an answer, not a success), a
 * time limit for the whole exchange, and the address checked at connect time. The answer's body
 * is read and dropped, at most 64 kB of it.
 */
export function postWebHook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): PostResult => ({
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(done(null, 'The URL is not valid.'));
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // An address written as such is never looked up: check it here.
    if (isIP(host) && !options.allowPrivate && isForbiddenAddress(host)) {
      return resolve(done(null, new RefusedAddressError(host, host).message));
    }
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        lookup: guardedLookup(options.allowPrivate),
        timeout: options.timeoutMs,
        agent: false,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 64 * 1024) response.destroy();
        });
        response.on('end', () => resolve(done(response.statusCode ?? null, null)));
        response.on('close', () => resolve(done(response.statusCode ?? null, null)));
        response.on('error', () => resolve(done(response.statusCode ?? null, null)));
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`No answer within ${options.timeoutMs / 1000} s.`));
    }, options.timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('timeout', () =>
      request.destroy(new Error(`No answer within ${options.timeoutMs / 1000} s.`)),
    );
    request.on('error', (error) => resolve(done(null, error.message)));
    request.end(body);
  });
}
