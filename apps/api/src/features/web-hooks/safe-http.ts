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
  // IPv4-compatible (deprecated, RFC 4291) with :: and ::1 in it: never a real receiver.
  ['::', 96],
  // NAT64 for local use (RFC 8215) and Teredo (RFC 4380, its client address obfuscated).
  ['64:ff9b:1::', 48],
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  forbidden.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of a valid IPv6 address, whichever way it is written (zeros, ::, a dotted tail). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const front = groups(head);
  const back = groups(tail);
  const middle = tail === undefined ? [] : Array<string>(8 - front.length - back.length).fill('0');
  return [...front, ...middle, ...back].flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 255];
  });
}

const v4 = (bytes: number[]) => bytes.join('.');
const zero = (bytes: number[]) => bytes.every((byte) => byte === 0);

/**
 * The IPv4 address an IPv6 address carries, by the forms that reach one: mapped (::ffff:0:0/96),
 * translated (::ffff:0:0:0/96, RFC 2765), NAT64 (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16,
 * RFC 3056). IPv4-compatible ::/96 and Teredo are refused whole (the block list).
 */
function embeddedIpv4(bytes: number[]): string | null {
  const prefix = (length: number, expected: number[]) =>
    bytes.slice(0, length).every((byte, i) => byte === (expected[i] ?? 0));
  if (zero(bytes.slice(0, 10)) && bytes[10] === 0xff && bytes[11] === 0xff)
    return v4(bytes.slice(12));
  if (
    zero(bytes.slice(0, 8)) &&
    bytes[8] === 0xff &&
    bytes[9] === 0xff &&
    zero(bytes.slice(10, 12))
  )
    return v4(bytes.slice(12));
  if (prefix(12, [0, 0x64, 0xff, 0x9b])) return v4(bytes.slice(12));
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(bytes.slice(2, 6));
  return null;
}

/** Whether an IP address is private, loopback, link-local or otherwise not of the public internet. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, 'ipv4');
  if (family !== 6) return true;
  const bytes = ipv6Bytes(address);
  const carried = embeddedIpv4(bytes);
  if (carried) return forbidden.check(carried, 'ipv4');
  const canonical = Array.from({ length: 8 }, (_, i) =>
    ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16),
  ).join(':');
  return forbidden.check(canonical, 'ipv6');
}

/** The port a URL connects to. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** A host name as compared: lower case, without a trailing dot or IPv6 brackets. */
export function hostKey(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

export const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export class RefusedAddressError extends Error {
  constructor(host: string, address: string) {
    super(
      host === address
        ? `${address} is a private or reserved address; web hooks are not sent there.`
        : `${host} resolves to ${address}, a private or reserved address; web hooks are not sent there.`,
    );
    this.name = 'RefusedAddressError';
  }
}

export class OwnAddressError extends Error {
  constructor(address: string) {
    super(`${address} is this server’s own address; web hooks are not sent there.`);
    this.name = 'OwnAddressError';
  }
}

const resolveAll = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * The addresses of this server's own host (PUBLIC_URL), looked up at most once a minute: a web
 * hook sent there would reach Ledgerline itself through its own front door (a hairpin).
 */
export function ownAddressesOf(publicUrl: string): () => Promise<string[]> {
  const host = hostKey(new URL(publicUrl).hostname);
  let known: { at: number; addresses: string[] } | undefined;
  return async () => {
    if (isIP(host)) return [host];
    if (known && Date.now() - known.at < 60_000) return known.addresses;
    const addresses = await resolveAll(host).then(
      (found) => found.map((a) => a.address),
      () => [] as string[],
    );
    known = { at: Date.now(), addresses };
    return addresses;
  };
}

/** An address as compared: IPv4 as such, IPv6 as its 16 bytes (a mapped IPv4 as the IPv4). */
function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const bytes = ipv6Bytes(address);
  return zero(bytes.slice(0, 10)) && bytes[10] === 0xff && bytes[11] === 0xff
    ? v4(bytes.slice(12))
    : bytes.join(':');
}

const sameAddress = (a: string, b: string) => addressKey(a) === addressKey(b);

/**
 * The one address a web hook connects to: the name resolved once, every answer checked (private
 * and reserved ranges unless allowed; this server's own public addresses always: its private ones
 * fall under the first rule), and the first kept. The socket is
 * given that address and no other (pinned), so a DNS answer that changes between the check and
 * the connection cannot pass.
 */
export async function pinnedAddress(
  hostname: string,
  options: { allowPrivate: boolean; ownAddresses?: () => Promise<string[]> },
): Promise<LookupAddress> {
  const host = hostKey(hostname);
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveAll(host);
  if (addresses.length === 0) throw new Error(`${host} has no address.`);
  const own = (await options.ownAddresses?.()) ?? [];
  for (const { address } of addresses) {
    const isPrivate = isForbiddenAddress(address);
    if (isPrivate && !options.allowPrivate) throw new RefusedAddressError(host, address);
    if (!isPrivate && own.some((mine) => sameAddress(mine, address)))
      throw new OwnAddressError(address);
  }
  return addresses[0]!;
}

/** A socket lookup that answers the pinned address only. */
function pinnedLookup(pinned: LookupAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [pinned]);
    return callback(null, pinned.address, pinned.family);
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
export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Ports a web hook may be sent to (WEBHOOK_ALLOWED_PORTS); undefined: any. */
  allowedPorts?: readonly number[];
  /** This server's own addresses (ownAddressesOf PUBLIC_URL): never sent to. */
  ownAddresses?: () => Promise<string[]>;
}

export function postWebHook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): PostResult => ({
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(null, 'The URL is not valid.'));
  }
  const host = hostKey(target.hostname);
  // The address is checked (and a name resolved) first, then the port, then it connects.
  if (isIP(host) && !options.allowPrivate && isForbiddenAddress(host)) {
    return Promise.resolve(done(null, new RefusedAddressError(host, host).message));
  }
  const port = portOf(target);
  return pinnedAddress(host, options).then(
    (pinned) =>
      options.allowedPorts && !options.allowedPorts.includes(port)
        ? done(null, `Port ${port} is not allowed for web hooks.`)
        : send(target, pinned),
    (error: Error) => done(null, error.message),
  );

  function send(target: URL, pinned: LookupAddress): Promise<PostResult> {
    return new Promise((resolve) => {
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
          // The checked address and no other; TLS still checks the certificate for the name.
          lookup: pinnedLookup(pinned),
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
}
