import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { isIPv4 } from 'node:net';
import { providerConnectionMessages } from '@ledgerline/contract';
import { providerFetch, ProviderUnreachableError } from '../http.js';

/** The address Opayo sees this server's calls from, or why it is not known. */
export type OutgoingIp = { ip: string } | { ip: null; problem: string };

/** RFC 1918, loopback, link-local, CGNAT (RFC 6598) and 0/8: never what Opayo sees. */
export function isPublicIpv4(ip: string): boolean {
  if (!isIPv4(ip)) return false;
  const [a, b] = ip.split('.').map(Number) as [number, number];
  return !(
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

/**
 * The one public IPv4 address among the machine's interfaces: a server without NAT calls out from
 * it. None, or several (which one a call leaves from is the routing table's choice): null.
 */
export function publicInterfaceIp(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string | null {
  const found = new Set(
    Object.values(interfaces)
      .flatMap((list) => list ?? [])
      .filter((info) => info.family === 'IPv4' && !info.internal && isPublicIpv4(info.address))
      .map((info) => info.address),
  );
  return found.size === 1 ? [...found][0]! : null;
}

/** An IPv4 address from a "what is my IP" answer: plain text (ipify, icanhazip) or JSON `{ ip }`. */
export function ipOfAnswer(text: string): string | null {
  const trimmed = text.trim();
  if (isIPv4(trimmed)) return trimmed;
  try {
    const ip = (JSON.parse(trimmed) as { ip?: unknown }).ip;
    return typeof ip === 'string' && isIPv4(ip) ? ip : null;
  } catch {
    return null;
  }
}

export const outgoingIpMessages = {
  unknown: providerConnectionMessages.opayoIpNotConfigured,
  lookupFailed: (url: string, why: string) =>
    `Ledgerline could not find the IP address Opayo sees it from: ${url} ${why}. ` +
    'Ask the operator to set OPAYO_SERVER_IP to that address.',
} as const;

/**
 * Where Opayo's IP registration gets this server's address (docs/decisions/133-opayo-server-ip-registration-is-part-of-the-save.md, "Opayo Server IP
 * registration"): OPAYO_SERVER_IP when set; else the answer of OPAYO_IP_LOOKUP_URL (asked again
 * after `cacheMs`, since a NAT's address can change); else the machine's one public interface
 * address; else a message saying what to set.
 */
export function createOutgoingIp(options: {
  configured?: string;
  lookupUrl?: string;
  timeoutMs: number;
  cacheMs?: number;
  interfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
  now?: () => number;
}): () => Promise<OutgoingIp> {
  const cacheMs = options.cacheMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  let cached: { ip: string; at: number } | null = null;

  async function lookUp(url: string): Promise<OutgoingIp> {
    if (cached && now() - cached.at < cacheMs) return { ip: cached.ip };
    try {
      const answer = await providerFetch('IP lookup', url, {
        method: 'GET',
        headers: { accept: 'text/plain, application/json' },
        timeoutMs: options.timeoutMs,
      });
      const ip = answer.status === 200 ? ipOfAnswer(answer.text) : null;
      if (!ip)
        return {
          ip: null,
          problem: outgoingIpMessages.lookupFailed(
            url,
            answer.status === 200 ? 'answered no IPv4 address' : `answered HTTP ${answer.status}`,
          ),
        };
      cached = { ip, at: now() };
      return { ip };
    } catch (error) {
      if (!(error instanceof ProviderUnreachableError)) throw error;
      return { ip: null, problem: outgoingIpMessages.lookupFailed(url, 'could not be reached') };
    }
  }

  return async () => {
    if (options.configured) return { ip: options.configured };
    if (options.lookupUrl) return lookUp(options.lookupUrl);
    const ip = publicInterfaceIp(options.interfaces?.());
    return ip ? { ip } : { ip: null, problem: outgoingIpMessages.unknown };
  };
}
