import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { providerConnectionMessages } from '@ledgerline/contract';
import {
  createOutgoingIp,
  ipOfAnswer,
  isPublicIpv4,
} from './opayo/outgoing-ip.js';

const v4 = (address: string, internal = false) =>
  ({ address, family: 'IPv4', internal }) as NetworkInterfaceInfo;

/** Where Opayo's IP registration finds this server's address without OPAYO_SERVER_IP. */
describe('the outgoing IP address', () => {
  it('OPAYO_SERVER_IP wins over everything', async () => {
    const resolve = createOutgoingIp({
      configured: '81.2.69.160',
      lookupUrl: 'http://127.0.0.1:9/ip',
      timeoutMs: 100,
      interfaces: () => ({ eth0: [v4('198.51.100.4')] }),
    });
    expect(await resolve()).toEqual({ ip: '81.2.69.160' });
  });

  it('without it or a lookup: the one public interface address', async () => {
    const resolve = createOutgoingIp({
      timeoutMs: 100,
      interfaces: () => ({ lo: [v4('127.0.0.1', true)], eth0: [v4('198.51.100.4')] }),
    });
    expect(await resolve()).toEqual({ ip: '198.51.100.4' });
  });

  it.each([
    ['only private addresses (behind NAT)', { eth0: [v4('10.0.0.5')], eth1: [v4('192.168.1.2')] }],
    [
      'two public addresses (the route decides)',
      { eth0: [v4('198.51.100.4')], eth1: [v4('198.51.100.5')] },
    ],
  ])('%s: says what to set', async (_label, interfaces) => {
    const resolve = createOutgoingIp({ timeoutMs: 100, interfaces: () => interfaces });
    expect(await resolve()).toEqual({
      ip: null,
      problem: providerConnectionMessages.opayoIpNotConfigured,
    });
    expect(providerConnectionMessages.opayoIpNotConfigured).toContain('OPAYO_SERVER_IP');
  });

  it('a lookup service that cannot be reached says so and what to set', async () => {
    const resolve = createOutgoingIp({ lookupUrl: 'http://127.0.0.1:9/ip', timeoutMs: 2000 });
    expect(await resolve()).toEqual({
      ip: null,
      problem:
        'Ledgerline could not find the IP address Opayo sees it from: http://127.0.0.1:9/ip could not be reached. Ask the operator to set OPAYO_SERVER_IP to that address.',
    });
  });

  it('reads plain-text and JSON answers; private and other addresses are not public', () => {
    expect(ipOfAnswer('203.0.113.7\n')).toBe('203.0.113.7');
    expect(ipOfAnswer('{"ip":"203.0.113.7"}')).toBe('203.0.113.7');
    expect(ipOfAnswer('<html>')).toBeNull();
    for (const ip of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '100.64.0.1',
      '169.254.1.1',
      '127.0.0.1',
    ])
      expect(isPublicIpv4(ip)).toBe(false);
    expect(isPublicIpv4('81.2.69.160')).toBe(true);
  });
});
