import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { companyDetailsMessages as m, logoMessages } from '@ledgerline/contract';
import { auditActivities, users } from '../../db/schema.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

let ctx: TestContext;
let admin: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await signIn(ctx, { tenantName: 'Details Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Details Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Details Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
});
afterAll(() => ctx.close());

const valid = {
  companyDetails: {
    name: '  Acme Widgets Ltd ',
    website: 'https://acme.example.com',
    taxCode: 'GB123456789',
    mainAddress: {
      firstNames: 'Ada',
      surname: 'Lovelace',
      email: 'ada@acme.example.com',
      telephone: '+44 20 7946 0000',
      address1: '1 Engine Street',
      address2: '',
      city: 'London',
      state: 'England',
      postCode: 'EC1A 1BB',
      country: 'United Kingdom of Great Britain and Northern Ireland',
    },
  },
};

const put = (who: SignedIn, payload: object, datasetId = '1') =>
  ctx.app.inject({
    method: 'PUT',
    url: '/api/v0/company-settings',
    headers: who.headers({ 'dataset-id': datasetId }),
    payload,
  });
const get = (who: SignedIn, url = '/api/v0/company-settings', datasetId = '1') =>
  ctx.app.inject({ method: 'GET', url, headers: who.headers({ 'dataset-id': datasetId }) });

function withDetails(change: Record<string, unknown>, address: Record<string, unknown> = {}) {
  return {
    companyDetails: {
      ...valid.companyDetails,
      ...change,
      mainAddress: { ...valid.companyDetails.mainAddress, ...address },
    },
  };
}

const boundary = '----ledgerline-logo-boundary';
function logoBody(data: Buffer, fileName: string, field = 'imageFile') {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="originalFilename"\r\n\r\n${fileName}\r\n`,
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}
const uploadLogo = (who: SignedIn, data: Buffer, fileName: string, field?: string) =>
  ctx.app.inject({
    method: 'PUT',
    url: '/api/v0/company-settings/logo',
    headers: who.headers({
      'dataset-id': '1',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    }),
    payload: logoBody(data, fileName, field),
  });

// The smallest valid PNG: 1×1 transparent pixel.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const hostileSvg = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">' +
    '<script>alert(2)</script><rect width="10" height="10" fill="red"/><image href="https://evil.example/x.png"/>' +
    '<use xlink:href="https://evil.example/sprite.svg#a"/><a href="javascript:alert(3)"><circle r="2"/></a></svg>',
);

describe('company details', () => {
  it('answers no details before they are saved, and the company name', async () => {
    const response = await get(admin);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      name: expect.any(String),
      companyDetails: null,
      logoUrl: null,
      paymentProvider: null,
    });
  });

  it('saves every field trimmed, empty optional texts as null, and writes the activity', async () => {
    const response = await put(admin, valid);
    expect(response.statusCode).toBe(200);
    expect(response.json().companyDetails).toEqual({
      ...valid.companyDetails,
      name: 'Acme Widgets Ltd',
      logoUrl: null,
      mainAddress: { ...valid.companyDetails.mainAddress, address2: null },
    });
    expect((await get(admin)).json().companyDetails.name).toBe('Acme Widgets Ltd');
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(
        and(
          eq(auditActivities.operation, 'UpdateCompanySettings'),
          eq(auditActivities.tenantId, admin.tenantId),
        ),
      );
    expect(activity).toMatchObject({ status: 200, userId: admin.userId });
  });

  const long = (n: number) => 'x'.repeat(n + 1);
  const cases: [string, Record<string, unknown>, Record<string, unknown>, string, string][] = [
    ['company name empty', { name: ' ' }, {}, 'companyDetails.name', m.companyNameRequired],
    ['company name too long', { name: long(100) }, {}, 'companyDetails.name', m.companyNameTooLong],
    [
      'website without https',
      { website: 'http://acme.example.com' },
      {},
      'companyDetails.website',
      m.website,
    ],
    [
      'website not a URL',
      { website: 'https://not a url' },
      {},
      'companyDetails.website',
      m.website,
    ],
    [
      'website too long',
      { website: `https://${'a'.repeat(90)}.example.com` },
      {},
      'companyDetails.website',
      m.websiteTooLong,
    ],
    ['tax code too long', { taxCode: long(50) }, {}, 'companyDetails.taxCode', m.taxCodeTooLong],
    [
      'first names missing',
      {},
      { firstNames: '' },
      'companyDetails.mainAddress.firstNames',
      m.firstNamesRequired,
    ],
    [
      'first names too long',
      {},
      { firstNames: long(100) },
      'companyDetails.mainAddress.firstNames',
      m.firstNamesTooLong,
    ],
    [
      'surname missing',
      {},
      { surname: '' },
      'companyDetails.mainAddress.surname',
      m.surnameRequired,
    ],
    [
      'surname too long',
      {},
      { surname: long(100) },
      'companyDetails.mainAddress.surname',
      m.surnameTooLong,
    ],
    ['email missing', {}, { email: '' }, 'companyDetails.mainAddress.email', m.emailRequired],
    [
      'email invalid',
      {},
      { email: 'ada-at-acme' },
      'companyDetails.mainAddress.email',
      m.emailInvalid,
    ],
    [
      'email too long',
      {},
      { email: `${'a'.repeat(490)}@example.com` },
      'companyDetails.mainAddress.email',
      m.emailTooLong,
    ],
    [
      'telephone too long',
      {},
      { telephone: long(100) },
      'companyDetails.mainAddress.telephone',
      m.telephoneTooLong,
    ],
    [
      'address line 1 missing',
      {},
      { address1: ' ' },
      'companyDetails.mainAddress.address1',
      m.address1Required,
    ],
    [
      'address line 1 too long',
      {},
      { address1: long(100) },
      'companyDetails.mainAddress.address1',
      m.address1TooLong,
    ],
    [
      'address line 2 too long',
      {},
      { address2: long(100) },
      'companyDetails.mainAddress.address2',
      m.address2TooLong,
    ],
    ['city missing', {}, { city: '' }, 'companyDetails.mainAddress.city', m.cityRequired],
    ['city too long', {}, { city: long(100) }, 'companyDetails.mainAddress.city', m.cityTooLong],
    ['state missing', {}, { state: '' }, 'companyDetails.mainAddress.state', m.stateRequired],
    [
      'state too long',
      {},
      { state: long(100) },
      'companyDetails.mainAddress.state',
      m.stateTooLong,
    ],
    [
      'post code missing',
      {},
      { postCode: '' },
      'companyDetails.mainAddress.postCode',
      m.postCodeRequired,
    ],
    [
      'post code too long',
      {},
      { postCode: long(100) },
      'companyDetails.mainAddress.postCode',
      m.postCodeTooLong,
    ],
    [
      'country missing',
      {},
      { country: '' },
      'companyDetails.mainAddress.country',
      m.countryRequired,
    ],
    [
      'country too long',
      {},
      { country: long(100) },
      'companyDetails.mainAddress.country',
      m.countryTooLong,
    ],
  ];
  it.each(cases)('refuses %s with its message', async (_name, change, address, field, message) => {
    const response = await put(admin, withDetails(change, address));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('keeps the saved details when a save is refused', async () => {
    await put(admin, withDetails({ name: '' }));
    expect((await get(admin)).json().companyDetails.name).toBe('Acme Widgets Ltd');
  });

  it('refuses a save without ConfigureSystemSettings, and lets a viewer read', async () => {
    const response = await put(viewer, valid);
    expect(response.statusCode).toBe(403);
    expect((await get(viewer)).statusCode).toBe(200);
    expect((await get(viewer)).json().companyDetails).toBeNull();
  });

  it("answers 404 for another tenant's company, and leaves it alone", async () => {
    await put(rival, withDetails({ name: 'Rival Co' }));
    expect((await put(admin, valid, '2')).statusCode).toBe(404);
    expect((await get(admin, '/api/v0/company-settings', '2')).statusCode).toBe(404);
    expect((await get(rival)).json().companyDetails.name).toBe('Rival Co');
    expect((await get(admin)).json().companyDetails.name).toBe('Acme Widgets Ltd');
  });

  it('answers the account info of the company', async () => {
    const response = await get(admin, '/api/v0/company-settings/account-info');
    expect(response.json()).toMatchObject({
      tenantId: admin.tenantId,
      tenantName: 'Details Ltd',
      datasetId: 1,
    });
    expect((await get(admin, '/api/v0/company-settings/account-info', '9')).statusCode).toBe(404);
  });
});

describe('logo', () => {
  it('stores a PNG, answers its address and serves it with nosniff', async () => {
    const response = await uploadLogo(admin, png, 'acme.png');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      fileName: 'acme.png',
      fileType: 'image/png',
      fileSize: png.length,
    });
    const settings = (await get(admin)).json();
    expect(settings.logoUrl).toMatch(/^\/api\/v0\/company-settings\/logo\?v=\d+$/);
    expect(settings.companyDetails.logoUrl).toBe(settings.logoUrl);
    const logo = await get(admin, settings.logoUrl);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.rawPayload.equals(png)).toBe(true);
  });

  it('sanitises an SVG: no script, event handler or external reference is kept', async () => {
    const response = await uploadLogo(admin, hostileSvg, 'acme.svg');
    expect(response.statusCode).toBe(200);
    expect(response.json().fileType).toBe('image/svg+xml');
    const logo = await get(admin, '/api/v0/company-settings/logo');
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.headers['content-security-policy']).toContain('sandbox');
    const svg = logo.body;
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<rect');
    expect(svg).not.toMatch(/script|onload|evil\.example|javascript:|<image|<a[\s>]/i);
  });

  it('refuses an HTML file named .png, and keeps the previous logo', async () => {
    const html = Buffer.from(
      '<!doctype html><html><body><script>alert(document.cookie)</script><p>not a logo</p></body></html>',
    );
    const response = await uploadLogo(admin, html, 'logo.png');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: logoMessages.type,
      errors: { imageFile: [logoMessages.type] },
    });
    expect((await get(admin, '/api/v0/company-settings/logo')).headers['content-type']).toBe(
      'image/svg+xml',
    );
  });

  it('refuses a GIF, a file under 50 bytes, one over 4 MB and a missing file with their messages', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(60)]);
    // Named as a PNG, the bytes still decide.
    expect((await uploadLogo(admin, gif, 'a.png')).json().detail).toBe(logoMessages.type);
    const tooSmall = await uploadLogo(admin, png.subarray(0, 40), 'a.png');
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json()).toMatchObject({
      detail: 'File size is too small, minimum allowed 50 bytes',
      errors: { imageFile: ['File size is too small, minimum allowed 50 bytes'] },
    });
    const huge = Buffer.concat([png, Buffer.alloc(4_194_304)]);
    const tooLarge = await uploadLogo(admin, huge, 'huge.png');
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().detail).toBe('File size is too large, maximum allowed 4194304 bytes');
    const wrongField = await uploadLogo(admin, png, 'a.png', 'file');
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().detail).toBe(logoMessages.required);
  });

  // spec 1 §5: 50 to 4194304 bytes; jpg, jpeg, png or svg compared case-insensitively.
  const svgOf = (bytes: number) => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
    return Buffer.from(svg.replace('></svg>', `${' '.repeat(bytes - svg.length)}></svg>`));
  };

  it('takes exactly 50 bytes and refuses 49 with the spec message', async () => {
    expect(svgOf(50).length).toBe(50);
    expect((await uploadLogo(admin, svgOf(50), 'fifty.svg')).statusCode).toBe(200);
    const short = await uploadLogo(admin, svgOf(49), 'forty-nine.svg');
    expect(short.statusCode).toBe(400);
    expect(short.json().detail).toBe('File size is too small, minimum allowed 50 bytes');
  });

  it('compares the extension case-insensitively', async () => {
    const upper = await uploadLogo(admin, png, 'ACME.PNG');
    expect(upper.statusCode).toBe(200);
    expect(upper.json()).toMatchObject({ fileName: 'ACME.PNG', fileType: 'image/png' });
    expect((await uploadLogo(admin, svgOf(60), 'Logo.SvG')).statusCode).toBe(200);
  });

  it('refuses a name without an extension: Invalid file extension.', async () => {
    for (const name of ['logo', 'logo.']) {
      const response = await uploadLogo(admin, png, name);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        detail: 'Invalid file extension.',
        errors: { imageFile: ['Invalid file extension.'] },
      });
    }
  });

  it('refuses another extension, naming it, even when the bytes are a PNG', async () => {
    const gif = await uploadLogo(admin, png, 'logo.gif');
    expect(gif.statusCode).toBe(400);
    expect(gif.json()).toMatchObject({
      detail: 'File with the extension gif is not supported.',
      errors: { imageFile: ['File with the extension gif is not supported.'] },
    });
    expect((await uploadLogo(admin, png, 'logo.PNG.exe')).json().detail).toBe(
      'File with the extension exe is not supported.',
    );
  });

  it('refuses uploads and clearing without ConfigureSystemSettings', async () => {
    expect((await uploadLogo(viewer, png, 'a.png')).statusCode).toBe(403);
    const clear = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/v0/company-settings/logo',
      headers: viewer.headers({ 'dataset-id': '1' }),
    });
    expect(clear.statusCode).toBe(403);
  });

  it("answers 404 for another tenant's company and never shows another tenant's logo", async () => {
    const other = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/company-settings/logo',
      headers: admin.headers({
        'dataset-id': '2',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }),
      payload: logoBody(png, 'a.png'),
    });
    expect(other.statusCode).toBe(404);
    expect((await get(rival, '/api/v0/company-settings/logo')).statusCode).toBe(404);
    const clear = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/v0/company-settings/logo',
      headers: rival.headers({ 'dataset-id': '1' }),
    });
    expect(clear.statusCode).toBe(404);
    expect((await get(admin, '/api/v0/company-settings/logo')).statusCode).toBe(200);
  });

  it('clears the logo', async () => {
    const clear = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/v0/company-settings/logo',
      headers: admin.headers({ 'dataset-id': '1' }),
    });
    expect(clear.statusCode).toBe(204);
    expect((await get(admin)).json().logoUrl).toBeNull();
    expect((await get(admin, '/api/v0/company-settings/logo')).statusCode).toBe(404);
  });
});

// spec 1 §3 Company settings: name, companyDetails, paymentProvider (the default configuration).
describe('payment provider', () => {
  const call = (who: SignedIn, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({
      method,
      url: `/api/v0/${url}`,
      headers: who.headers({ 'dataset-id': '1' }),
      ...(payload ? { payload } : {}),
    });
  const sandbox = (name: string) => ({
    providerName: 'Sandbox',
    name,
    enabled: true,
    displayPriority: 0,
  });

  it('answers the default configuration in short, follows a change of default, and is null without one', async () => {
    const merchant = await signIn(ctx, { tenantName: 'Provider Settings Ltd' });
    // The Sandbox test provider belongs to demo companies.
    await makeDemoCompany(ctx, merchant);
    expect((await get(merchant)).json().paymentProvider).toBeNull();

    const first = await call(merchant, 'POST', 'providers', sandbox('Till one'));
    expect(first.statusCode, first.body).toBe(201);
    const second = await call(merchant, 'POST', 'providers', {
      ...sandbox('Till two'),
      enabled: false,
    });
    expect(second.statusCode, second.body).toBe(201);
    const settings = (await get(merchant)).json();
    expect(settings.paymentProvider).toEqual({
      id: first.json().id,
      providerName: 'Sandbox',
      name: 'Till one',
      enabled: true,
      isTest: first.json().isTest,
    });
    expect(Object.keys(settings.paymentProvider)).not.toContain('credentials');
    expect(Object.keys(settings.paymentProvider)).not.toContain('settings');

    const changed = await call(merchant, 'PUT', 'company-settings/payment-provider', {
      paymentProviderId: second.json().id,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await get(merchant)).json().paymentProvider).toMatchObject({
      id: second.json().id,
      name: 'Till two',
      enabled: false,
    });

    expect(
      (await call(merchant, 'DELETE', `providers/${second.json().id}`)).statusCode,
    ).toBeLessThan(300);
    expect((await get(merchant)).json().paymentProvider).toBeNull();
  });

  it("never answers another tenant's default provider", async () => {
    const owner = await signIn(ctx, { tenantName: 'Provider Owner Ltd' });
    await makeDemoCompany(ctx, owner);
    const stranger = await signIn(ctx, { tenantName: 'Provider Stranger Ltd' });
    expect((await call(owner, 'POST', 'providers', sandbox('Owner till'))).statusCode).toBe(201);
    expect((await get(owner)).json().paymentProvider.name).toBe('Owner till');
    expect((await get(stranger)).json().paymentProvider).toBeNull();
    expect((await get(stranger, '/api/v0/company-settings', '2')).statusCode).toBe(404);
  });
});
