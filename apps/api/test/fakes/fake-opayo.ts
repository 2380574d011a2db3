import { createHash } from 'node:crypto';
import { sendJson, startFakeServer, type FakeServer } from './fake-server.js';

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
}

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
  const server = await startFakeServer((request, response) => {
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
  return Object.assign(server, { vendors, registeredIps, integrations, deferred });
}
