import { sendJson, startFakeServer, type FakeServer } from './fake-server.js';

export interface FakeTranSafe extends FakeServer {
  /** user name (with '|' for ':') → password */
  users: Map<string, string>;
  /** Transactions by ttid: preauths waiting to be completed or reversed. */
  transactions: Map<string, { amount: string; status: 'preauth' | 'complete' | 'reversed' }>;
}

/**
 * TranSafe (Monetra) REST v2: `GET /api/v2/user/permissions` with Basic credentials answers
 * `code: AUTH` and the user's permissions, or `code: DENY` with the reason.
 */
export async function startFakeTranSafe(): Promise<FakeTranSafe> {
  const users = new Map<string, string>();
  const transactions: FakeTranSafe['transactions'] = new Map();
  const server = await startFakeServer((request, response) => {
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
      if (!found || found.status !== 'preauth') {
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
  return Object.assign(server, { users, transactions });
}
