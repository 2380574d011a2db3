import { isIP } from 'node:net';
import { webHookMessages as m } from '@ledgerline/contract';
import { ValidationError } from '../../platform/errors.js';
import { hostKey, isForbiddenAddress, loopbackHosts, portOf } from './safe-http.js';

/** Where a web hook endpoint may point. */
export interface EndpointUrlRules {
  /** http:// to this computer is accepted outside production (development, tests). */
  allowLoopbackHttp: boolean;
  allowPrivate: boolean;
  /** WEBHOOK_ALLOWED_PORTS; null: any. */
  allowedPorts: readonly number[] | null;
  /** Ledgerline's own address: its host is never a web hook's. */
  publicUrl: string;
}

/**
 * https only (http to loopback outside production); never a private address unless allowed,
 * never Ledgerline's own host, only the allowed ports. Names are checked again where it counts,
 * at connect time (safe-http.ts).
 */
export function checkEndpointUrl(value: string, rules: EndpointUrlRules) {
  const ownHost = hostKey(new URL(rules.publicUrl).hostname);
  const url = new URL(value);
  const host = hostKey(url.hostname);
  const loopback = loopbackHosts.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
  if (
    url.protocol !== 'https:' &&
    !(url.protocol === 'http:' && loopback && rules.allowLoopbackHttp)
  ) {
    throw new ValidationError({ url: [m.urlHttps] }, m.urlHttps);
  }
  if (!rules.allowPrivate && (host === 'localhost' || (isIP(host) && isForbiddenAddress(host)))) {
    throw new ValidationError({ url: [m.urlPrivate] }, m.urlPrivate);
  }
  if (host === ownHost) throw new ValidationError({ url: [m.urlOwnHost] }, m.urlOwnHost);
  if (rules.allowedPorts && !rules.allowedPorts.includes(portOf(url))) {
    throw new ValidationError({ url: [m.urlPort] }, m.urlPort);
  }
}
