import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson, startFakeServer, type FakeRequest, type FakeServer } from './fake-server.js';

export interface FakeTranSafe extends FakeServer {
  /** user name (with '|' for ':') → password */
  users: Map<string, string>;
  /** API key id → secret (`X-API-KEY-ID` / `X-API-KEY`). */
  apiKeys: Map<string, string>;
  /**
   * Transactions by ttid: preauths waiting to be completed or reversed, and purchases; `settled`
   * once their batch settled (a test sets it), `refunded` the sum of their refunds.
   */
  transactions: Map<string, FakeTranSafeTransaction>;
  /** Refunds by their own ttid: the transaction refunded and the amount. */
  refunds: Map<string, { of: string; amount: string }>;
  /** Card tickets the PaymentFrame issued: ticket → the card behind it, used once. */
  tickets: Map<string, { account: string; used: boolean }>;
  /** Every purchase or preauth as TranSafe read it (the ticket's card, the amount, the order). */
  charges: { kind: 'purchase' | 'preauth'; amount: string; ordernum: string; account: string }[];
  /** Test switch: the next purchase or preauth answers this, whatever the card. */
  nextAnswer: { code: string; verbiage: string } | null;
}

export interface FakeTranSafeTransaction {
  amount: string;
  status: 'preauth' | 'complete' | 'reversed' | 'voided';
  settled?: boolean;
  refunded?: string;
}

/** Test cards of the fake (any other valid number is approved). */
export const fakeTranSafeCards = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  callIssuer: '4000000000000119',
} as const;

const hmacHex = (key: string, content: string) =>
  createHmac('sha256', key).update(content, 'utf8').digest('hex');

/** The order Monetra hashes the PaymentFrame's fields in (its public PaymentFrame examples). */
const frameFieldOrder = [
  'timestamp',
  'domain',
  'sequence',
  'username',
  'css-url',
  'include-cardholdername',
  'include-street',
  'include-zip',
  'expdate-format',
  'cardholdername-format',
  'auto-reload',
  'autocomplete',
  'include-submit-button',
];

function sendHtml(response: ServerResponse, status: number, html: string) {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(html);
}

/** Basic (user name with '|' for ':') or API key headers, as TranSafe's REST API takes them. */
function authorised(request: FakeRequest, users: Map<string, string>, keys: Map<string, string>) {
  const keyId = request.headers['x-api-key-id'];
  if (typeof keyId === 'string') return keys.get(keyId) === request.headers['x-api-key'];
  const basic = (request.headers.authorization ?? '').replace(/^Basic /, '');
  const [user, ...rest] = Buffer.from(basic, 'base64').toString('utf8').split(':');
  return Boolean(user) && users.get(user!) === rest.join(':');
}

/**
 * The PaymentFrame page: card fields on TranSafe's host. Asked by its parent (`{type:
 * "submitPaymentData"}`), it gets a ticket for the card and posts the answer (`code`, `ticket`,
 * `verbiage`, `monetra_resp_hmacsha256`) to the parent, at the HMAC's domain only.
 */
function framePage(fields: Record<string, string>) {
  const data = JSON.stringify({
    username: fields.username,
    timestamp: fields.timestamp,
    sequence: fields.sequence,
  }).replace(/</g, '\\u003c');
  const domain = JSON.stringify(fields.domain).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card details</title></head>
<body><form id="card">
<label for="account">Card number</label><input id="account" name="account" autocomplete="cc-number" inputmode="numeric">
<label for="expdate">Expiry date (MMYY)</label><input id="expdate" name="expdate" autocomplete="cc-exp">
<label for="cv">Security code</label><input id="cv" name="cv" autocomplete="cc-csc" inputmode="numeric">
${fields['include-cardholdername'] === 'yes' ? '<label for="cardholdername">Name on card</label><input id="cardholdername" name="cardholdername" autocomplete="cc-name">' : ''}
${fields['include-submit-button'] === 'no' ? '' : '<button type="submit">Submit</button>'}
</form><script>
var frame = ${data}; var domain = ${domain};
function submitPaymentData() {
  var form = document.getElementById('card');
  var body = Object.assign({}, frame, { account: form.account.value, expdate: form.expdate.value, cv: form.cv.value });
  fetch('ticket', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .then(function (r) { return r.json(); })
    .then(function (answer) { parent.postMessage(JSON.stringify(answer), domain); });
}
document.getElementById('card').addEventListener('submit', function (e) { e.preventDefault(); submitPaymentData(); });
window.addEventListener('message', function (e) {
  if (e.origin !== domain) return;
  var message = typeof e.data === 'string' ? JSON.parse(e.data) : e.data;
  if (message && message.type === 'submitPaymentData') submitPaymentData();
});
</script></body></html>`;
}

/**
 * TranSafe (Monetra) REST v2: `GET /api/v2/user/permissions` with Basic credentials answers
 * `code: AUTH` and the user's permissions, or `code: DENY` with the reason. The PaymentFrame
 * (`GET /PaymentFrame/?hmac-…`, its HMAC checked with the user's password) issues card tickets,
 * which `POST /api/v2/transaction/purchase|preauth` charge once (`account_data.cardshieldticket`).
 */
export async function startFakeTranSafe(): Promise<FakeTranSafe> {
  const users = new Map<string, string>();
  const apiKeys = new Map<string, string>();
  const transactions: FakeTranSafe['transactions'] = new Map();
  const refunds: FakeTranSafe['refunds'] = new Map();
  const tickets: FakeTranSafe['tickets'] = new Map();
  const charges: FakeTranSafe['charges'] = [];
  let ttids = 0;
  const passwordOf = (userName: string | undefined) =>
    userName === undefined ? undefined : users.get(userName.replace(/:/g, '|'));

  const server = await startFakeServer((request, response) => {
    if (request.method === 'GET' && request.path === '/PaymentFrame/') {
      const fields: Record<string, string> = {};
      for (const [key, value] of request.query)
        if (key.startsWith('hmac-')) fields[key.slice('hmac-'.length)] = value;
      const password = passwordOf(fields.username);
      const expected = password
        ? hmacHex(password, frameFieldOrder.map((key) => fields[key] ?? '').join(''))
        : '';
      const given = (fields.hmacsha256 ?? '').toLowerCase();
      if (
        !expected ||
        given.length !== expected.length ||
        !timingSafeEqual(Buffer.from(given), Buffer.from(expected))
      )
        return sendHtml(response, 400, '<!doctype html><title>Error</title><p>Invalid HMAC</p>');
      if (Math.abs(Date.now() / 1000 - Number(fields.timestamp)) > 15 * 60)
        return sendHtml(response, 400, '<!doctype html><title>Error</title><p>HMAC expired</p>');
      return sendHtml(response, 200, framePage(fields));
    }
    if (request.method === 'POST' && request.path === '/PaymentFrame/ticket') {
      const asked = JSON.parse(request.body || '{}') as Record<string, string | undefined>;
      const password = passwordOf(asked.username);
      if (!password || !asked.timestamp || !asked.sequence)
        return sendJson(response, 400, { code: 'DENY', verbiage: 'Invalid frame request' });
      const account = (asked.account ?? '').replace(/\D/g, '');
      if (!/^\d{12,19}$/.test(account))
        return sendJson(response, 200, { code: 'DENY', verbiage: 'Invalid card number' });
      if (!/^(0[1-9]|1[0-2])\d{2}$/.test((asked.expdate ?? '').replace(/\D/g, '')))
        return sendJson(response, 200, { code: 'DENY', verbiage: 'Invalid expiration date' });
      const ticket = randomBytes(12).toString('hex');
      tickets.set(ticket, { account, used: false });
      return sendJson(response, 200, {
        code: 'AUTH',
        verbiage: 'SUCCESS',
        ticket,
        monetra_resp_hmacsha256: hmacHex(
          password,
          `${asked.username}${asked.timestamp}${asked.sequence}${ticket}`,
        ),
      });
    }
    const charge = /^\/api\/v2\/transaction\/(purchase|preauth)$/.exec(request.path);
    if (charge && request.method === 'POST') {
      if (!authorised(request, users, apiKeys))
        return sendJson(response, 401, {
          code: 'DENY',
          msoft_code: 'ACCT_BADAUTH',
          verbiage: 'Invalid username or password',
        });
      const body = JSON.parse(request.body || '{}') as {
        account_data?: { cardshieldticket?: string };
        money?: { amount?: string };
        order?: { ordernum?: string };
      };
      const ticket = tickets.get(body.account_data?.cardshieldticket ?? '');
      if (!ticket || ticket.used)
        return sendJson(response, 200, {
          code: 'DENY',
          msoft_code: 'DATA_INVALIDTICKET',
          verbiage: 'Invalid or expired card ticket',
        });
      const amount = body.money?.amount ?? '';
      if (!/^\d+(\.\d{1,3})?$/.test(amount) || Number(amount) <= 0)
        return sendJson(response, 200, {
          code: 'DENY',
          msoft_code: 'DATA_INVALIDMOD',
          verbiage: 'Invalid amount',
        });
      ticket.used = true;
      const kind = charge[1] as 'purchase' | 'preauth';
      charges.push({ kind, amount, ordernum: body.order?.ordernum ?? '', account: ticket.account });
      const ttid = String(++ttids + 96_000_000_000);
      const forced = fake.nextAnswer;
      fake.nextAnswer = null;
      const answer = forced
        ? { ...forced, msoft_code: 'INT_SUCCESS' }
        : ticket.account === fakeTranSafeCards.declined
          ? { code: 'DENY', msoft_code: 'INT_SUCCESS', phard_code: 'DECLINE', verbiage: 'DECLINED' }
          : ticket.account === fakeTranSafeCards.callIssuer
            ? {
                code: 'CALL',
                msoft_code: 'INT_SUCCESS',
                phard_code: 'CALL',
                verbiage: 'CALL FOR AUTH',
              }
            : {
                code: 'AUTH',
                msoft_code: 'INT_SUCCESS',
                phard_code: 'SUCCESS',
                verbiage: 'APPROVED',
              };
      if (answer.code === 'AUTH')
        transactions.set(ttid, { amount, status: kind === 'preauth' ? 'preauth' : 'complete' });
      return sendJson(response, 200, {
        ...answer,
        ttid,
        account: `XXXXXXXXXXXX${ticket.account.slice(-4)}`,
        cardtype: 'VISA',
        amount,
      });
    }
    const refundable =
      /^\/api\/v2\/(?:transaction\/([^/]+)\/(refund|void)|report\/unsettled)$/.exec(request.path);
    if (refundable) return refundCall(request, response, refundable[1], refundable[2]);
    const transaction = /^\/api\/v2\/transaction\/([^/]+)(\/complete)?$/.exec(request.path);
    if (transaction && (request.method === 'PATCH' || request.method === 'DELETE')) {
      const basic = (request.headers.authorization ?? '').replace(/^Basic /, '');
      const [user, ...rest] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      if (!user || users.get(user) !== rest.join(':')) {
        return sendJson(response, 401, {
          code: 'DENY',
          msoft_code: 'ACCT_BADAUTH',
          verbiage: 'Invalid username or password',
        });
      }
      const ttid = decodeURIComponent(transaction[1]!);
      const found = transactions.get(ttid);
      // A reversal also takes back a whole purchase while its batch is unsettled and unrefunded.
      const reversible =
        request.method === 'DELETE' &&
        !transaction[2] &&
        found?.status === 'complete' &&
        !found.settled &&
        !found.refunded;
      if (!found || (found.status !== 'preauth' && !reversible)) {
        return sendJson(response, 200, {
          code: 'DENY',
          msoft_code: 'TRAN_NOTFOUND',
          verbiage: 'Transaction not found or not a preauth',
          ttid,
        });
      }
      if (request.method === 'PATCH' && transaction[2]) {
        const amount =
          (JSON.parse(request.body || '{}') as { money?: { amount?: string } }).money?.amount ??
          found.amount;
        if (Number(amount) > Number(found.amount)) {
          return sendJson(response, 200, {
            code: 'DENY',
            msoft_code: 'TRAN_AMOUNTEXCEEDS',
            verbiage: 'Amount exceeds the authorized amount',
            ttid,
          });
        }
        found.status = 'complete';
        found.amount = amount;
        return sendJson(response, 200, {
          code: 'AUTH',
          msoft_code: 'INT_SUCCESS',
          verbiage: 'APPROVED',
          ttid,
        });
      }
      if (request.method === 'DELETE' && !transaction[2]) {
        found.status = 'reversed';
        return sendJson(response, 200, {
          code: 'AUTH',
          msoft_code: 'INT_SUCCESS',
          verbiage: 'REVERSED',
          ttid,
        });
      }
    }
    if (request.method !== 'GET' || request.path !== '/api/v2/user/permissions') {
      return sendJson(response, 404, {
        code: 'DENY',
        msoft_code: 'INT_NOTFOUND',
        verbiage: 'Not found',
      });
    }
    const basic = (request.headers.authorization ?? '').replace(/^Basic /, '');
    const [user, ...rest] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    if (!user || users.get(user) !== rest.join(':')) {
      return sendJson(response, 401, {
        code: 'DENY',
        msoft_code: 'ACCT_BADAUTH',
        verbiage: 'Invalid username or password',
      });
    }
    return sendJson(response, 200, {
      code: 'AUTH',
      msoft_code: 'INT_SUCCESS',
      verbiage: 'SUCCESS',
      profile_id: '1',
      sys_perms: 'ADMIN|TRAN',
      trans_perms: 'SALE|PREAUTH|CAPTURE|REVERSAL',
    });
  });
  /**
   * `GET report/unsettled?ttid=` (the transaction while its batch is unsettled: `report` with its
   * amount, else an empty report), `POST transaction/{ttid}/refund` (`money.amount`, never more
   * than what is left: DENY `Refund amount exceeds original transaction`) and
   * `DELETE transaction/{ttid}/void` (an unsettled one, whole).
   */
  function refundCall(
    request: FakeRequest,
    response: ServerResponse,
    ttid: string | undefined,
    kind: string | undefined,
  ) {
    if (!authorised(request, users, apiKeys))
      return sendJson(response, 401, {
        code: 'DENY',
        msoft_code: 'ACCT_BADAUTH',
        verbiage: 'Invalid username or password',
      });
    if (!ttid && request.method === 'GET') {
      const found = transactions.get(request.query.get('ttid') ?? '');
      const open = found && found.status === 'complete' && !found.settled;
      return sendJson(response, 200, {
        code: 'AUTH',
        msoft_code: 'INT_SUCCESS',
        verbiage: 'SUCCESS',
        report: open ? [{ ttid: request.query.get('ttid'), amount: found.amount }] : [],
      });
    }
    const id = decodeURIComponent(ttid ?? '');
    const found = transactions.get(id);
    const deny = (msoft_code: string, verbiage: string) =>
      sendJson(response, 200, { code: 'DENY', msoft_code, verbiage, ttid: id });
    if (!found || found.status !== 'complete')
      return deny('TRAN_NOTFOUND', 'Transaction not found or not refundable');
    if (kind === 'void' && request.method === 'DELETE') {
      if (found.settled) return deny('TRAN_SETTLED', 'Transaction already settled');
      found.status = 'voided';
      return sendJson(response, 200, {
        code: 'AUTH',
        msoft_code: 'INT_SUCCESS',
        verbiage: 'VOIDED',
        ttid: id,
      });
    }
    if (kind !== 'refund' || request.method !== 'POST')
      return sendJson(response, 405, { code: 'DENY', verbiage: 'Method not allowed' });
    const amount =
      (JSON.parse(request.body || '{}') as { money?: { amount?: string } }).money?.amount ?? '';
    if (!/^\d+(\.\d{1,3})?$/.test(amount) || Number(amount) <= 0)
      return deny('DATA_INVALIDMOD', 'Invalid amount');
    const left = Math.round((Number(found.amount) - Number(found.refunded ?? 0)) * 100);
    if (Math.round(Number(amount) * 100) > left)
      return deny('TRAN_AMOUNTEXCEEDS', 'Refund amount exceeds original transaction');
    found.refunded = (
      (Math.round(Number(found.refunded ?? 0) * 100) + Math.round(Number(amount) * 100)) /
      100
    ).toFixed(2);
    const refundTtid = String(++ttids + 96_000_000_000);
    refunds.set(refundTtid, { of: id, amount });
    return sendJson(response, 200, {
      code: 'AUTH',
      msoft_code: 'INT_SUCCESS',
      phard_code: 'SUCCESS',
      verbiage: 'APPROVED',
      ttid: refundTtid,
      amount,
    });
  }

  // The object handed back; the handler reads its test switch (`fake` is set before any request).
  const fake: FakeTranSafe = Object.assign(server, {
    users,
    apiKeys,
    transactions,
    refunds,
    tickets,
    charges,
    nextAnswer: null,
  });
  return fake;
}
