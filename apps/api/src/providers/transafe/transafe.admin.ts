import { recordedFetch, type ExchangeRecorder } from '../recorded-fetch.js';

interface TranSafeAnswer {
  code?: string;
  msoft_code?: string;
  verbiage?: string;
}

/**
 * TranSafe (Monetra) REST API v2: Basic authentication with any ':' of the user name written '|'.
 * The connection test is the read-only `GET /api/v2/user/permissions` (`code: AUTH` on success).
 */
export function createTranSafeAdmin(options: {
  testUrl: string;
  liveUrl: string;
  timeoutMs: number;
}) {
  return {
    async testConnection(
      input: { useTestServer: boolean; userName: string; password: string },
      recorder?: ExchangeRecorder,
    ) {
      const base = input.useTestServer ? options.testUrl : options.liveUrl;
      const credentials = Buffer.from(
        `${input.userName.replace(/:/g, '|')}:${input.password}`,
      ).toString('base64');
      const url = `${base.replace(/\/$/, '')}/api/v2/user/permissions`;
      const answer = await recordedFetch(
        'TranSafe',
        url,
        {
          method: 'GET',
          headers: { authorization: `Basic ${credentials}`, accept: 'application/json' },
          timeoutMs: options.timeoutMs,
        },
        {
          recorder,
          eventType: 'user.permissions',
          recordType: 'user',
          recordId: input.userName,
          // The credentials travel only in the Authorization header, which is never recorded.
          request: { method: 'GET', url },
          status: (answer) =>
            answer.json<TranSafeAnswer>()?.code?.toLowerCase() ?? `http_${answer.status}`,
        },
      );
      const body = answer.json<TranSafeAnswer>();
      if (body?.code === 'AUTH') return { success: true, message: 'Connection successful.' };
      return {
        success: false,
        message: body?.verbiage ?? body?.msoft_code ?? `TranSafe answered HTTP ${answer.status}.`,
      };
    },
  };
}
export type TranSafeAdmin = ReturnType<typeof createTranSafeAdmin>;
