import { randomBytes } from 'node:crypto';
import {
  escapeHtml,
  returnUrl,
  sendHtml,
  sendJson,
  startFakeServer,
  type FakeServer,
} from './fake-server.js';

export interface FakeGoCardless extends FakeServer {
  clientId: string;
  clientSecret: string;
  /** The organisation the next authorisation connects and its creditor. */
  organisation: {
    id: string;
    creditorName: string;
    verificationStatus: 'successful' | 'in_review' | 'action_required';
  };
}

/**
 * GoCardless's OAuth (connect) and API in one server, answering as GoCardless does: the authorise
 * page, `POST /oauth/access_token` (form; invalid_grant / invalid_client), `GET /creditors` with
 * the merchant's Bearer token and `GoCardless-Version`.
 */
export async function startFakeGoCardless(): Promise<FakeGoCardless> {
  const clientId = `gc_client_${randomBytes(6).toString('hex')}`;
  const clientSecret = `gc_secret_${randomBytes(12).toString('hex')}`;
  const codes = new Set<string>();
  const tokens = new Map<string, string>();
  const fake = {
    clientId,
    clientSecret,
    organisation: {
      id: 'OR000FAKE0001',
      creditorName: 'Fake Direct Debit Ltd',
      verificationStatus: 'in_review' as const,
    } as FakeGoCardless['organisation'],
  };
  const server = await startFakeServer((request, response) => {
    if (request.method === 'GET' && request.path === '/oauth/authorize') {
      if (
        request.query.get('client_id') !== clientId ||
        request.query.get('response_type') !== 'code'
      ) {
        return sendHtml(response, '<h1>Invalid client</h1>');
      }
      const code = randomBytes(16).toString('hex');
      codes.add(code);
      const allow = returnUrl(request.query.get('redirect_uri') ?? '', {
        code,
        state: request.query.get('state') ?? '',
      });
      return sendHtml(
        response,
        `<h1>Connect your GoCardless account</h1><a href="${escapeHtml(allow)}">Authorise</a>`,
      );
    }
    if (request.method === 'POST' && request.path === '/oauth/access_token') {
      if (
        request.form.get('client_id') !== clientId ||
        request.form.get('client_secret') !== clientSecret
      ) {
        return sendJson(response, 401, { error: 'invalid_client' });
      }
      const code = request.form.get('code') ?? '';
      if (request.form.get('grant_type') !== 'authorization_code' || !codes.has(code)) {
        return sendJson(response, 400, {
          error: 'invalid_grant',
          error_description: 'The authorization code is invalid or has expired.',
        });
      }
      codes.delete(code);
      const token = `live_${randomBytes(16).toString('hex')}`;
      tokens.set(token, fake.organisation.id);
      return sendJson(response, 200, {
        access_token: token,
        token_type: 'bearer',
        scope: 'read_write',
        organisation_id: fake.organisation.id,
        email: 'owner@example.com',
      });
    }
    if (request.method === 'GET' && request.path === '/creditors') {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!tokens.has(token)) {
        return sendJson(response, 401, {
          error: {
            message: 'Invalid token',
            documentation_url: 'https://developer.gocardless.com/api-reference#invalid_api_usage',
            type: 'invalid_api_usage',
            request_id: randomBytes(8).toString('hex'),
            code: 401,
            errors: [{ reason: 'invalid_token', message: 'Invalid token' }],
          },
        });
      }
      if (request.headers['gocardless-version'] !== '2015-07-06') {
        return sendJson(response, 400, {
          error: {
            message: 'GoCardless-Version header missing',
            type: 'invalid_api_usage',
            code: 400,
            errors: [
              { reason: 'missing_version_header', message: 'GoCardless-Version header missing' },
            ],
          },
        });
      }
      return sendJson(response, 200, {
        creditors: [
          {
            id: 'CR000FAKE0001',
            name: fake.organisation.creditorName,
            verification_status: fake.organisation.verificationStatus,
            created_at: '2026-01-01T00:00:00.000Z',
          },
        ],
        meta: { cursors: { before: null, after: null }, limit: 50 },
      });
    }
    return sendJson(response, 404, {
      error: { message: 'Resource not found', type: 'invalid_api_usage', code: 404, errors: [] },
    });
  });
  return Object.assign(server, fake);
}
