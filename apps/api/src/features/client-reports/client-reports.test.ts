import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { loadConfig } from '../../config.js';
import { createLogger } from '../../platform/logger.js';
import { buildTestApp, type TestContext } from '../../../test/app.js';
import { startFakeServer, type FakeServer } from '../../../test/fakes/fake-server.js';
import { waitFor } from '../../../test/wait.js';

/*
 * spec 1 §8: "An error-reporting service is wired in with an instrumentation key; web-vitals
 * reporting is included." The site's reports come to POST client-reports without sign-in, are
 * logged, counted in /metrics and forwarded to a collector by configuration.
 * Spec 1 §2.2: the user menu's terms of service and privacy policy open the
 * addresses GET info/site answers.
 */

let ctx: TestContext;
let collector: FakeServer;
let collectorStatus = 202;
const logLines: Record<string, unknown>[] = [];

const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
      logLines.push(JSON.parse(line));
    done();
  },
});

const anError = {
  type: 'error',
  source: 'react',
  message: "Cannot read properties of undefined (reading 'amount')",
  stack: 'TypeError: Cannot read properties of undefined\n    at PaymentPage (payment-page.tsx:12)',
  path: '/payment-transactions/0190a000-0000-7000-8000-000000000001',
};
const vitals = [
  { type: 'web-vital', name: 'LCP', value: 1200, rating: 'good', path: '/' },
  { type: 'web-vital', name: 'CLS', value: 0.3, rating: 'poor', path: '/' },
  { type: 'web-vital', name: 'INP', value: 350, rating: 'needs-improvement', path: '/' },
];

let address = 0;
/** A client address of its own per call site, so the rate limit of one test does not touch another. */
const nextAddress = () => `10.0.0.${++address}`;

function report(payload: unknown, remoteAddress = nextAddress(), app = ctx.app) {
  return app.inject({
    method: 'POST',
    url: '/api/v0/client-reports',
    payload: payload as object,
    remoteAddress,
  });
}

async function metricsText() {
  const response = await ctx.app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  return response.body;
}

beforeAll(async () => {
  collector = await startFakeServer((_request, response) => {
    response.writeHead(collectorStatus).end();
  });
  ctx = await buildTestApp(
    {
      CLIENT_REPORTS_PER_MINUTE: '3',
      CLIENT_REPORTS_FORWARD_URL: collector.url,
      CLIENT_REPORTS_FORWARD_KEY: 'instrumentation-key-1',
      TERMS_OF_SERVICE_URL: 'https://operator.example/terms',
      PRIVACY_POLICY_URL: 'https://operator.example/privacy',
    },
    {},
    { loggerInstance: createLogger('info', capture) },
  );
});
afterAll(async () => {
  await ctx.close();
  await collector.close();
});

describe('GET info/site', () => {
  it('answers the configured terms of service and privacy policy addresses, without sign-in', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v0/info/site' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      termsOfServiceUrl: 'https://operator.example/terms',
      privacyPolicyUrl: 'https://operator.example/privacy',
      clientReports: true,
    });
  });

  it('refuses an address that is not http or https at start', () => {
    const base = { NODE_ENV: 'test' as const };
    expect(() => loadConfig({ ...base, TERMS_OF_SERVICE_URL: 'javascript:alert(1)' })).toThrow();
    expect(() => loadConfig({ ...base, PRIVACY_POLICY_URL: 'not an address' })).toThrow();
    expect(() =>
      loadConfig({ ...base, CLIENT_REPORTS_FORWARD_URL: 'file:///etc/passwd' }),
    ).toThrow();
  });
});

describe('POST client-reports', () => {
  it('logs an error report and counts it in /metrics by how it was caught', async () => {
    const response = await report({ reports: [anError] });
    expect(response.statusCode, response.body).toBe(204);
    const logged = logLines.find((line) => line.msg === 'site error reported');
    expect(logged).toMatchObject({ level: 40, clientError: anError });
    expect(await metricsText()).toMatch(/^client_errors_total\{source="react"\} 1$/m);
  });

  it('logs the web vitals and counts them by metric and rating, with their values', async () => {
    expect((await report({ reports: vitals })).statusCode).toBe(204);
    expect(logLines.find((line) => line.msg === 'site web vitals reported')).toMatchObject({
      webVitals: vitals,
    });
    const text = await metricsText();
    expect(text).toMatch(/^client_web_vitals_total\{name="LCP",rating="good"\} 1$/m);
    expect(text).toMatch(/^client_web_vitals_total\{name="CLS",rating="poor"\} 1$/m);
    expect(text).toMatch(/^client_web_vitals_total\{name="INP",rating="needs-improvement"\} 1$/m);
    expect(text).toMatch(/^client_web_vitals_seconds_sum\{name="LCP"\} 1\.2$/m);
    expect(text).toMatch(/^client_cumulative_layout_shift_sum 0\.3$/m);
  });

  it('forwards what it accepted to the collector with the instrumentation key', async () => {
    const forwarded = await waitFor(async () =>
      collector.requests.find((request) => request.body.includes('"web-vital"')),
    );
    expect(forwarded.method).toBe('POST');
    expect(forwarded.headers.authorization).toBe('Bearer instrumentation-key-1');
    expect(forwarded.headers['content-type']).toBe('application/json');
    expect(JSON.parse(forwarded.body)).toMatchObject({
      receivedAt: expect.any(String),
      reports: vitals,
    });
  });

  it('counts a batch the collector refused, and still answers the site 204', async () => {
    collectorStatus = 500;
    try {
      expect((await report({ reports: [anError] })).statusCode).toBe(204);
      await waitFor(
        async () =>
          /^client_reports_forward_dropped_total\{reason="failed"\} 1$/m.test(
            await metricsText(),
          ) || undefined,
      );
    } finally {
      collectorStatus = 202;
    }
  });

  it.each([
    [
      'a page address with its query',
      { reports: [{ ...anError, path: '/signin-callback?code=secret' }] },
      ['reports', 0, 'path'],
      'A path starting with /.',
    ],
    [
      'a full address',
      { reports: [{ ...anError, path: 'https://elsewhere.example/' }] },
      ['reports', 0, 'path'],
      'A path starting with /.',
    ],
    [
      'a metric of its own',
      { reports: [{ ...vitals[0], name: 'Evil"} 1\nfake_metric' }] },
      ['reports', 0, 'name'],
      undefined,
    ],
    [
      'an error source of its own',
      { reports: [{ ...anError, source: 'console' }] },
      ['reports', 0, 'source'],
      undefined,
    ],
    [
      'a negative value',
      { reports: [{ ...vitals[0], value: -1 }] },
      ['reports', 0, 'value'],
      undefined,
    ],
    [
      'a message too long',
      { reports: [{ ...anError, message: 'x'.repeat(1001) }] },
      ['reports', 0, 'message'],
      undefined,
    ],
    [
      'more than 10 reports',
      { reports: Array.from({ length: 11 }, () => vitals[0]) },
      ['reports'],
      undefined,
    ],
    ['no report', { reports: [] }, ['reports'], undefined],
  ])('refuses %s with 400 and counts nothing', async (_case, payload, field, message) => {
    const before = await metricsText();
    const response = await report(payload);
    expect(response.statusCode, response.body).toBe(400);
    const errors = response.json().errors as Record<string, string[]>;
    const key =
      Object.keys(errors).find((name) => name === field.join('.')) ?? Object.keys(errors)[0]!;
    expect(key).toBe(field.join('.'));
    if (message) expect(errors[key]).toEqual([message]);
    const after = await metricsText();
    expect(after).not.toContain('fake_metric');
    expect(after.match(/^client_(errors|web_vitals)_total.*$/gm)).toEqual(
      before.match(/^client_(errors|web_vitals)_total.*$/gm),
    );
  });

  it('refuses a body over 32 KiB with 413', async () => {
    const response = await report({ reports: [{ ...anError, stack: 'x'.repeat(40_000) }] });
    expect(response.statusCode).toBe(413);
  });

  it('answers 429 past CLIENT_REPORTS_PER_MINUTE calls a minute from one address', async () => {
    const from = nextAddress();
    for (let call = 0; call < 3; call++)
      expect((await report({ reports: [vitals[0]] }, from)).statusCode).toBe(204);
    const limited = await report({ reports: [vitals[0]] }, from);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toBe('Too many requests. Please wait a moment and try again.');
    // Another address is not held back by it.
    expect((await report({ reports: [vitals[0]] })).statusCode).toBe(204);
  });
});

describe('CLIENT_REPORTS=false', () => {
  let off: TestContext;
  beforeAll(async () => {
    off = await buildTestApp({ CLIENT_REPORTS: 'false' });
  });
  afterAll(() => off.close());

  it('tells the site not to report, and does not serve the intake', async () => {
    const info = await off.app.inject({ method: 'GET', url: '/api/v0/info/site' });
    expect(info.json()).toEqual({
      termsOfServiceUrl: null,
      privacyPolicyUrl: null,
      clientReports: false,
    });
    const response = await report({ reports: [anError] }, nextAddress(), off.app);
    expect(response.statusCode).toBe(404);
  });
});
