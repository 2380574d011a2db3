import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createFakeOpayoPi, type FakeOpayoPi } from './fake-opayo-pi.js';
import { escapeHtml, sendHtml, sendJson, startFakeServer, type FakeServer } from './fake-server.js';

export interface FakeOpayoUser {
  password: string;
  admin: boolean;
}

export interface FakeOpayo extends FakeServer {
  /** vendor → user → credentials. */
  vendors: Map<string, Map<string, FakeOpayoUser>>;
  registeredIps: { vendor: string; address: string; mask: string }[];
  /** Pi: integration key → password, and deferred transactions by id. */
  integrations: Map<string, string>;
  deferred: Map<string, { amount: number; status: 'Deferred' | 'Released' | 'Aborted' }>;
  /** Pi on the payer page: session keys, Opayo.js, card identifiers, transactions, 3-D Secure. */
  pi: FakeOpayoPi;
  /** Server: vendors that may register transactions (their names, as Opayo spells them). */
  serverVendors: Set<string>;
  /** Server transactions by VPSTxId. */
  server: Map<string, FakeServerTransaction>;
  /** Server refunds by their own VPSTxId. */
  serverRefunds: Map<string, FakeServerRefund>;
  /**
   * Where notifications go instead of NotificationURL's own origin (the app's PUBLIC_URL is not
   * where a test's app listens); null: NotificationURL as registered.
   */
  deliverTo: string | null;
  /**
   * The address a "what is my IP" service would see this server's calls from (behind a NAT): the
   * fake answers it as plain text at `GET /whatismyip`, like api.ipify.org (not an Opayo call;
   * OPAYO_IP_LOOKUP_URL points at it in tests). Null: that service is down (503).
   */
  outgoingIp: string | null;
  /** The next register call answers this instead (MALFORMED / INVALID / ERROR), once. */
  failNextRegister: { status: string; detail: string } | null;
  /** The signed notification Opayo would POST for a payer's outcome on the card page. */
  notificationFor(vpsTxId: string, outcome: FakeCardOutcome): URLSearchParams;
  /**
   * The payer finishes on the card page: the fake POSTs the signed notification to the
   * transaction's NotificationURL and answers with our RedirectURL (where the payer goes next).
   */
  complete(
    vpsTxId: string,
    outcome: FakeCardOutcome,
  ): Promise<{ answer: string; redirectUrl: string | null }>;
}

export type FakeCardOutcome = 'pay' | 'decline' | 'cancel';

export interface FakeServerTransaction {
  vendor: string;
  vendorTxCode: string;
  txType: 'PAYMENT' | 'DEFERRED';
  amount: string;
  currency: string;
  securityKey: string;
  notificationUrl: string;
  txAuthNo: string | null;
  status: 'Registered' | 'Paid' | 'Deferred' | 'Released' | 'Aborted' | 'NotAuthed';
  releasedAmount: string | null;
  /** Shared REFUNDs of it (refund.vsp), in pence. */
  refundedPence?: number;
}

/** A shared REFUND Opayo took: its own VPSTxId, VendorTxCode and amount, and the original's. */
export interface FakeServerRefund {
  vendor: string;
  vendorTxCode: string;
  relatedVpsTxId: string;
  amount: string;
  description: string;
}

/** The fields of a notification in the order protocol 4.00 signs them, with the key and vendor. */
const signatureOrder = [
  'VPSTxId',
  'VendorTxCode',
  'Status',
  'TxAuthNo',
  '<vendor>',
  'AVSCV2',
  'Token',
  '<key>',
  'AddressResult',
  'PostCodeResult',
  'CV2Result',
  'GiftAid',
  '3DSecureStatus',
  'CAVV',
  'AddressStatus',
  'PayerStatus',
  'CardType',
  'Last4Digits',
  'DeclineCode',
  'ExpiryDate',
  'FraudResponse',
  'BankAuthCode',
  'ACSTransID',
  'DSTransID',
  'SchemeTraceID',
];

const serverAnswer = (response: ServerResponse, fields: Record<string, string>) => {
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end(
    Object.entries({ VPSProtocol: '4.00', ...fields })
      .map(([key, value]) => `${key}=${value}`)
      .join('\r\n'),
  );
};

/** Protocol 4.00 register fields Opayo refuses a transaction without (MALFORMED). */
const requiredRegisterFields = [
  'VPSProtocol',
  'TxType',
  'Vendor',
  'VendorTxCode',
  'Amount',
  'Currency',
  'Description',
  'NotificationURL',
  'BillingSurname',
  'BillingFirstnames',
  'BillingAddress1',
  'BillingCity',
  'BillingCountry',
  'DeliverySurname',
  'DeliveryFirstnames',
  'DeliveryAddress1',
  'DeliveryCity',
  'DeliveryCountry',
];

const tag = (xml: string, name: string) =>
  new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1] ?? null;

/**
 * Opayo's Reporting & Admin API (`POST /access/access.htm`, form field XML). The signature is the
 * MD5 of the command's elements and `<password>…</password>`, checked like Opayo does: 0008 for an
 * unknown or locked vendor or user, 0010 for a signature that does not match (wrong password),
 * 0011 for a user without admin rights, 3002 for a malformed vendor name.
 */
export async function startFakeOpayo(): Promise<FakeOpayo> {
  const vendors = new Map<string, Map<string, FakeOpayoUser>>();
  const registeredIps: FakeOpayo['registeredIps'] = [];
  const timestamp = () => new Date().toISOString().replace('T', ' ').slice(0, 19);
  const answer = (code: string, error: string | null, extra = '') =>
    `<vspaccess><errorcode>${code}</errorcode>${error ? `<error>${error}</error>` : ''}<timestamp>${timestamp()}</timestamp>${extra}</vspaccess>`;
  const integrations = new Map<string, string>();
  const deferred: FakeOpayo['deferred'] = new Map();
  const serverVendors = new Set<string>();
  const transactions: FakeOpayo['server'] = new Map();
  const serverRefunds: FakeOpayo['serverRefunds'] = new Map();
  let base = '';
  // The fake itself, once made: a test sets failNextRegister on it.
  let fakeRef: FakeOpayo | null = null;

  function notificationFor(vpsTxId: string, outcome: FakeCardOutcome) {
    const transaction = transactions.get(vpsTxId);
    if (!transaction) throw new Error(`no Opayo Server transaction ${vpsTxId}`);
    const status = outcome === 'pay' ? 'OK' : outcome === 'decline' ? 'NOTAUTHED' : 'ABORT';
    const fields = new Map<string, string>([
      ['VPSProtocol', '4.00'],
      ['TxType', transaction.txType],
      ['VendorTxCode', transaction.vendorTxCode],
      ['VPSTxId', vpsTxId],
      ['Status', status],
      [
        'StatusDetail',
        outcome === 'pay'
          ? '0000 : The Authorisation was Successful.'
          : outcome === 'decline'
            ? '2000 : The Authorisation was Declined by the bank.'
            : '2013 : The Transaction was cancelled by the customer.',
      ],
      ['TxAuthNo', outcome === 'pay' ? (transaction.txAuthNo ?? '9104528') : ''],
      ['AVSCV2', outcome === 'cancel' ? '' : 'SECURITY CODE MATCH ONLY'],
      ['AddressResult', outcome === 'cancel' ? '' : 'NOTMATCHED'],
      ['PostCodeResult', outcome === 'cancel' ? '' : 'NOTMATCHED'],
      ['CV2Result', outcome === 'cancel' ? '' : 'MATCHED'],
      ['GiftAid', '0'],
      ['3DSecureStatus', outcome === 'cancel' ? '' : 'OK'],
      ['CAVV', outcome === 'pay' ? 'AAABARR5kwAAAAAAAAAAAAAAAAA=' : ''],
      ['CardType', outcome === 'cancel' ? '' : 'VISA'],
      ['Last4Digits', outcome === 'cancel' ? '' : '0006'],
      ['DeclineCode', outcome === 'decline' ? '05' : outcome === 'pay' ? '00' : ''],
      ['ExpiryDate', outcome === 'cancel' ? '' : '1229'],
      ['BankAuthCode', outcome === 'pay' ? '999777' : ''],
      ['ACSTransID', outcome === 'cancel' ? '' : randomUUID()],
      ['DSTransID', outcome === 'cancel' ? '' : randomUUID()],
      ['SchemeTraceID', outcome === 'pay' ? 'SP999777' : ''],
    ]);
    for (const [key, value] of [...fields]) if (value === '') fields.delete(key);
    const content = signatureOrder
      .map((name) =>
        name === '<vendor>'
          ? transaction.vendor.toLowerCase()
          : name === '<key>'
            ? transaction.securityKey
            : (fields.get(name) ?? ''),
      )
      .join('');
    const params = new URLSearchParams([...fields]);
    params.set('VPSSignature', createHash('md5').update(content).digest('hex').toUpperCase());
    if (outcome === 'pay') {
      transaction.txAuthNo = fields.get('TxAuthNo')!;
      transaction.status = transaction.txType === 'DEFERRED' ? 'Deferred' : 'Paid';
    } else transaction.status = outcome === 'decline' ? 'NotAuthed' : 'Aborted';
    return params;
  }

  async function complete(vpsTxId: string, outcome: FakeCardOutcome) {
    const transaction = transactions.get(vpsTxId);
    if (!transaction) throw new Error(`no Opayo Server transaction ${vpsTxId}`);
    const target = new URL(transaction.notificationUrl);
    const deliverTo = fakeRef?.deliverTo;
    const delivered = await fetch(deliverTo ? `${deliverTo}${target.pathname}` : target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: notificationFor(vpsTxId, outcome).toString(),
    });
    const answer = await delivered.text();
    const redirect = /^RedirectURL=(.*)$/m.exec(answer)?.[1]?.trim() ?? null;
    return { answer, redirectUrl: /^Status=OK\b/m.test(answer) ? redirect : null };
  }

  /** release.vsp and abort.vsp: the keys must be the transaction's own. */
  function instruct(form: URLSearchParams, response: ServerResponse, kind: 'RELEASE' | 'ABORT') {
    const transaction = transactions.get(form.get('VPSTxId') ?? '');
    if (form.get('VPSProtocol') !== '4.00' || form.get('TxType') !== kind)
      return serverAnswer(response, {
        Status: 'MALFORMED',
        StatusDetail: '3227 : The VPSProtocol or TxType value is invalid.',
      });
    if (
      !transaction ||
      transaction.vendor !== form.get('Vendor') ||
      transaction.vendorTxCode !== form.get('VendorTxCode') ||
      transaction.securityKey !== form.get('SecurityKey') ||
      transaction.txAuthNo !== form.get('TxAuthNo')
    )
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '4022 : The Transaction was not found or the keys do not match.',
      });
    if (transaction.status !== 'Deferred')
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '4041 : The Transaction is not a deferred transaction awaiting release.',
      });
    if (kind === 'RELEASE') {
      const amount = form.get('ReleaseAmount') ?? '';
      if (!/^\d+\.\d{2}$/.test(amount) || Number(amount) > Number(transaction.amount))
        return serverAnswer(response, {
          Status: 'INVALID',
          StatusDetail: '4035 : The Release amount is invalid or more than the deferred amount.',
        });
      transaction.status = 'Released';
      transaction.releasedAmount = amount;
    } else transaction.status = 'Aborted';
    return serverAnswer(response, { Status: 'OK', StatusDetail: '0000 : Done.' });
  }

  /**
   * refund.vsp: a shared REFUND of a paid (or released) transaction, the Related* keys its own,
   * a VendorTxCode never used before (4042), the sum of its refunds within what was taken.
   */
  function refund(form: URLSearchParams, response: ServerResponse) {
    const required = [
      'VPSProtocol',
      'TxType',
      'Vendor',
      'VendorTxCode',
      'Amount',
      'Currency',
      'Description',
      'RelatedVPSTxId',
      'RelatedVendorTxCode',
      'RelatedSecurityKey',
      'RelatedTxAuthNo',
    ];
    const missing = required.find((field) => !form.get(field));
    if (missing)
      return serverAnswer(response, {
        Status: 'MALFORMED',
        StatusDetail: `3000 : The ${missing} field is missing.`,
      });
    if (form.get('VPSProtocol') !== '4.00' || form.get('TxType') !== 'REFUND')
      return serverAnswer(response, {
        Status: 'MALFORMED',
        StatusDetail: '3227 : The VPSProtocol or TxType value is invalid.',
      });
    const original = transactions.get(form.get('RelatedVPSTxId')!);
    if (
      !original ||
      original.vendor !== form.get('Vendor') ||
      original.vendorTxCode !== form.get('RelatedVendorTxCode') ||
      original.securityKey !== form.get('RelatedSecurityKey') ||
      original.txAuthNo !== form.get('RelatedTxAuthNo')
    )
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '4022 : The Transaction was not found or the keys do not match.',
      });
    const vendorTxCode = form.get('VendorTxCode')!;
    if (
      vendorTxCode.length > 40 ||
      [...transactions.values(), ...serverRefunds.values()].some(
        (t) => t.vendor === original.vendor && t.vendorTxCode === vendorTxCode,
      )
    )
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '4042 : The VendorTxCode has been used before.',
      });
    const taken =
      original.status === 'Paid'
        ? original.amount
        : original.status === 'Released'
          ? original.releasedAmount
          : null;
    if (!taken)
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '4043 : The Transaction has not been taken, so it cannot be refunded.',
      });
    const amount = form.get('Amount')!;
    const pence = (value: string) => Math.round(Number(value) * 100);
    if (!/^\d+\.\d{2}$/.test(amount) || pence(amount) <= 0)
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '3035 : The Amount value is invalid.',
      });
    if ((original.refundedPence ?? 0) + pence(amount) > pence(taken))
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '4044 : This Refund would exceed the amount of the original transaction.',
      });
    original.refundedPence = (original.refundedPence ?? 0) + pence(amount);
    const vpsTxId = `{${randomUUID().toUpperCase()}}`;
    serverRefunds.set(vpsTxId, {
      vendor: original.vendor,
      vendorTxCode,
      relatedVpsTxId: form.get('RelatedVPSTxId')!,
      amount,
      description: form.get('Description')!,
    });
    return serverAnswer(response, {
      Status: 'OK',
      StatusDetail: '0000 : The Authorisation was Successful.',
      VPSTxId: vpsTxId,
      TxAuthNo: String(9_000_000 + serverRefunds.size),
    });
  }

  function register(form: URLSearchParams, response: ServerResponse) {
    if (fakeRef?.failNextRegister) {
      const { status, detail } = fakeRef.failNextRegister;
      fakeRef.failNextRegister = null;
      return serverAnswer(response, { Status: status, StatusDetail: detail });
    }
    const missing = requiredRegisterFields.find((field) => !form.get(field));
    if (missing)
      return serverAnswer(response, {
        Status: 'MALFORMED',
        StatusDetail: `3000 : The ${missing} field is missing.`,
      });
    if (form.get('VPSProtocol') !== '4.00')
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '3227 : The VPSProtocol value is not supported by the system in use.',
      });
    const vendor = form.get('Vendor')!;
    if (!serverVendors.has(vendor))
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '4000 : The VendorName is invalid or the account is not active.',
      });
    const txType = form.get('TxType');
    if (txType !== 'PAYMENT' && txType !== 'DEFERRED')
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '3013 : The TxType is not supported.',
      });
    if (!/^\d+\.\d{2}$/.test(form.get('Amount')!))
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '3035 : The Amount value is invalid.',
      });
    const vendorTxCode = form.get('VendorTxCode')!;
    if (
      [...transactions.values()].some((t) => t.vendor === vendor && t.vendorTxCode === vendorTxCode)
    )
      return serverAnswer(response, {
        Status: 'INVALID',
        StatusDetail: '4042 : The VendorTxCode has been used before.',
      });
    const vpsTxId = `{${randomUUID().toUpperCase()}}`;
    const securityKey = randomBytes(5).toString('hex').toUpperCase();
    transactions.set(vpsTxId, {
      vendor,
      vendorTxCode,
      txType,
      amount: form.get('Amount')!,
      currency: form.get('Currency')!,
      securityKey,
      notificationUrl: form.get('NotificationURL')!,
      txAuthNo: null,
      status: 'Registered',
      releasedAmount: null,
    });
    return serverAnswer(response, {
      Status: 'OK',
      StatusDetail: '2014 : The Transaction was Registered Successfully.',
      VPSTxId: vpsTxId,
      SecurityKey: securityKey,
      NextURL: `${base}/gateway/service/cardselection?vpstxid=${encodeURIComponent(vpsTxId)}`,
    });
  }

  const pi = createFakeOpayoPi({ base: () => base, integrations, deferred });
  const server = await startFakeServer((request, response) => {
    if (pi.handle(request, response)) return;
    if (request.method === 'GET' && request.path === '/whatismyip') {
      const ip = fakeRef?.outgoingIp ?? null;
      response.writeHead(ip ? 200 : 503, { 'content-type': 'text/plain' });
      return response.end(ip ?? 'Service Unavailable');
    }
    if (request.method === 'POST' && request.path === '/gateway/service/vspserver-register.vsp')
      return register(request.form, response);
    if (request.method === 'POST' && request.path === '/gateway/service/release.vsp')
      return instruct(request.form, response, 'RELEASE');
    if (request.method === 'POST' && request.path === '/gateway/service/abort.vsp')
      return instruct(request.form, response, 'ABORT');
    if (request.method === 'POST' && request.path === '/gateway/service/refund.vsp')
      return refund(request.form, response);
    if (request.method === 'GET' && request.path === '/gateway/service/cardselection') {
      const id = request.query.get('vpstxid') ?? '';
      const transaction = transactions.get(id);
      if (!transaction) return sendHtml(response, '<p>The transaction was not found.</p>');
      const link = (outcome: FakeCardOutcome, text: string) =>
        `<a href="/fake/server/${encodeURIComponent(id)}/${outcome}">${text}</a>`;
      return sendHtml(
        response,
        `<h1>Opayo card payment</h1><p>${escapeHtml(transaction.currency)} ${escapeHtml(transaction.amount)}</p>` +
          `${link('pay', 'Pay')} ${link('decline', 'Decline')} ${link('cancel', 'Cancel')}`,
      );
    }
    const finish = /^\/fake\/server\/([^/]+)\/(pay|decline|cancel)$/.exec(request.path);
    if (request.method === 'GET' && finish) {
      // The card page's outcome: the signed notification first, then the payer goes where we said.
      void complete(decodeURIComponent(finish[1]!), finish[2] as FakeCardOutcome).then(
        ({ redirectUrl }) => {
          if (!redirectUrl)
            return sendHtml(response, '<p>The merchant did not accept the payment.</p>');
          response.writeHead(302, { location: redirectUrl });
          response.end();
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        },
      );
      return;
    }
    const instruction = /^\/api\/v1\/transactions\/([^/]+)\/instructions$/.exec(request.path);
    if (request.method === 'POST' && instruction) {
      const [key, ...rest] = Buffer.from(
        (request.headers.authorization ?? '').replace(/^Basic /, ''),
        'base64',
      )
        .toString('utf8')
        .split(':');
      if (!key || integrations.get(key) !== rest.join(':'))
        return sendJson(response, 401, { code: 1002, description: 'Authentication failed' });
      const transaction = deferred.get(decodeURIComponent(instruction[1]!));
      if (!transaction)
        return sendJson(response, 404, { code: 1012, description: 'Transaction not found' });
      const body = JSON.parse(request.body || '{}') as {
        instructionType?: string;
        amount?: number;
      };
      if (transaction.status !== 'Deferred')
        return sendJson(response, 422, {
          code: 1017,
          description: 'Instruction is invalid for the current transaction state',
        });
      if (body.instructionType === 'release') {
        if (typeof body.amount !== 'number' || body.amount > transaction.amount)
          return sendJson(response, 422, {
            code: 1018,
            description: 'Release amount exceeds the original amount',
          });
        transaction.status = 'Released';
        transaction.amount = body.amount;
      } else if (body.instructionType === 'abort') {
        transaction.status = 'Aborted';
      } else {
        return sendJson(response, 422, { code: 1003, description: 'Invalid instruction type' });
      }
      return sendJson(response, 201, {
        instructionType: body.instructionType,
        date: new Date().toISOString(),
      });
    }
    if (request.method !== 'POST' || request.path !== '/access/access.htm')
      return sendJson(response, 404, {});
    response.writeHead(200, { 'content-type': 'text/xml' });
    const xml = request.form.get('XML') ?? '';
    const signature = tag(xml, 'signature');
    const vendor = tag(xml, 'vendor') ?? '';
    const user = tag(xml, 'user') ?? '';
    const command = tag(xml, 'command') ?? '';
    if (!signature) return response.end(answer('0001', 'The XML is not valid: signature missing.'));
    if (!/^[A-Za-z0-9_-]{1,15}$/.test(vendor))
      return response.end(answer('3002', `Invalid vendor name: ${vendor}`));
    const account = vendors.get(vendor)?.get(user);
    if (!account)
      return response.end(
        answer('0008', 'The Vendor or VendorName is invalid or the account is not active.'),
      );
    const signed = xml.slice(xml.indexOf('<command>'), xml.indexOf('<signature>'));
    const expected = createHash('md5')
      .update(`${signed}<password>${account.password}</password>`)
      .digest('hex');
    if (signature !== expected) return response.end(answer('0010', 'The signature is invalid.'));
    if (!account.admin)
      return response.end(
        answer('0011', 'Administrative privileges are required for this command.'),
      );
    if (command === 'version') return response.end(answer('0000', null, '<version>1.0</version>'));
    if (command === 'addValidIPs') {
      registeredIps.push({
        vendor,
        address: tag(xml, 'address') ?? '',
        mask: tag(xml, 'mask') ?? '',
      });
      return response.end(answer('0000', null));
    }
    return response.end(answer('0005', `Unknown command: ${command}`));
  });
  base = server.url;
  const fake: FakeOpayo = (fakeRef = Object.assign(server, {
    vendors,
    registeredIps,
    integrations,
    deferred,
    pi,
    serverVendors,
    server: transactions,
    serverRefunds,
    notificationFor,
    complete,
    failNextRegister: null,
    deliverTo: null,
    outgoingIp: '203.0.113.7',
  }));
  return fake;
}
