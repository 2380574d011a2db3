import { webHookMessages as m } from '@ledgerline/contract';
import { describe, expect, it } from 'vitest';
import { checkEndpointUrl, type EndpointUrlRules } from './endpoint-url.js';

const rules: EndpointUrlRules = {
  allowLoopbackHttp: false,
  allowPrivate: false,
  allowedPorts: [443, 80],
  publicUrl: 'https://ledgerline.example.com',
};
const refusal = (url: string, with_: Partial<EndpointUrlRules> = {}) => {
  try {
    checkEndpointUrl(url, { ...rules, ...with_ });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('checkEndpointUrl', () => {
  it('takes https to a public host on an allowed port', () => {
    expect(refusal('https://hooks.example.org/in')).toBeNull();
  });

  it('refuses http, except to this computer where allowed', () => {
    expect(refusal('http://hooks.example.org/in')).toBe(m.urlHttps);
    expect(refusal('http://127.0.0.1:8080/in')).toBe(m.urlHttps);
    expect(
      refusal('http://127.0.0.1/in', { allowLoopbackHttp: true, allowPrivate: true }),
    ).toBeNull();
  });

  it('refuses private addresses unless allowed, its own host, and other ports', () => {
    expect(refusal('https://10.0.0.1/in')).toBe(m.urlPrivate);
    expect(refusal('https://localhost/in')).toBe(m.urlPrivate);
    expect(refusal('https://10.0.0.1/in', { allowPrivate: true })).toBeNull();
    expect(refusal('https://ledgerline.example.com/hook')).toBe(m.urlOwnHost);
    expect(refusal('https://hooks.example.org:8443/in')).toBe(m.urlPort);
    expect(refusal('https://hooks.example.org:8443/in', { allowedPorts: null })).toBeNull();
  });
});
