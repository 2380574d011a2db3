import { randomBytes } from 'node:crypto';
import { sendJson, startFakeServer, type FakeServer } from './fake-server.js';

export interface FakeOppwa extends FakeServer {
  entityId: string;
  accessToken: string;
  /** Pre-authorisations (PA) by payment id, and what became of them. */
  payments: Map<string, { amount: string; currency: string; status: 'PA' | 'CP' | 'RV' }>;
}

const timestamp = () => new Date().toISOString().replace('T', ' ').replace('Z', '+0000');

/**
 * ACI / PAY.ON OPPWA's `POST /v1/payments/{id}` back office: CP (capture of a PA, amount and
 * currency), RV (reversal). Bearer access token and entityId as OPPWA checks them; test-mode
 * success code 000.100.110; 800.900.300 for bad authentication, 700.400.200 for a PA already
 * captured or reversed.
 */
export async function startFakeOppwa(): Promise<FakeOppwa> {
  const entityId = `8a8294174b7ecb28${randomBytes(8).toString('hex')}`;
  const accessToken = randomBytes(24).toString('base64');
  const payments: FakeOppwa['payments'] = new Map();
  const result = (code: string, description: string) => ({
    result: { code, description },
    buildNumber: 'fake',
    timestamp: timestamp(),
    ndc: randomBytes(16).toString('hex'),
  });
  const server = await startFakeServer((request, response) => {
    const match = /^\/v1\/payments\/([^/]+)$/.exec(request.path);
    if (request.method !== 'POST' || !match)
      return sendJson(response, 404, result('200.300.404', 'invalid or missing parameter'));
    if (
      request.headers.authorization !== `Bearer ${accessToken}` ||
      request.form.get('entityId') !== entityId
    ) {
      return sendJson(response, 401, result('800.900.300', 'invalid authentication information'));
    }
    const payment = payments.get(decodeURIComponent(match[1]!));
    if (!payment) return sendJson(response, 400, result('700.400.000', 'invalid payment id'));
    if (payment.status !== 'PA')
      return sendJson(
        response,
        400,
        result(
          '700.400.200',
          'cannot reverse or capture an already captured or reversed transaction',
        ),
      );
    const paymentType = request.form.get('paymentType');
    if (paymentType === 'CP') {
      const amount = request.form.get('amount') ?? '';
      if (!/^\d+\.\d{2}$/.test(amount) || request.form.get('currency') !== payment.currency)
        return sendJson(response, 400, result('200.300.404', 'invalid or missing parameter'));
      if (Number(amount) > Number(payment.amount))
        return sendJson(
          response,
          400,
          result(
            '700.400.100',
            'cannot capture (PA value exceeded, PA reverted or invalid workflow?)',
          ),
        );
      payment.status = 'CP';
    } else if (paymentType === 'RV') {
      payment.status = 'RV';
    } else {
      return sendJson(response, 400, result('200.300.404', 'invalid or missing parameter'));
    }
    return sendJson(response, 200, {
      id: randomBytes(16).toString('hex'),
      referencedId: match[1],
      paymentType,
      ...(paymentType === 'CP'
        ? { amount: request.form.get('amount'), currency: payment.currency }
        : {}),
      ...result(
        '000.100.110',
        "Request successfully processed in 'Merchant in Integrator Test Mode'",
      ),
    });
  });
  return Object.assign(server, { entityId, accessToken, payments });
}
