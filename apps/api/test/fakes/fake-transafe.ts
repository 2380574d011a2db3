import { sendJson, startFakeServer, type FakeServer } from './fake-server.js';

export interface FakeTranSafe extends FakeServer {
  /** user name (with '|' for ':') → password */
  users: Map<string, string>;
}

/**
 * TranSafe (Monetra) REST v2: `GET /api/v2/user/permissions` with Basic credentials answers
 * `code: AUTH` and the user's permissions, or `code: DENY` with the reason.
 */
export async function startFakeTranSafe(): Promise<FakeTranSafe> {
  const users = new Map<string, string>();
  const server = await startFakeServer((request, response) => {
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
  return Object.assign(server, { users });
}
