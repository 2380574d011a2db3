import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  opayoCardBodySchema,
  payPageAnswerSchema,
  payPaymentStatusSchema,
  sandboxCardBodySchema,
  startPaymentBodySchema,
  startedPaymentSchema,
  tranSafeTicketBodySchema,
  uuidPattern,
} from '@ledgerline/contract';
import { payChallengeRoutes } from './pay-challenge.routes.js';
import type { PayService } from './pay.service.js';

const tags = ['pay'];
/** Any text: an id that is not a UUID is simply a request that does not exist (the expired page). */
const requestParams = z.object({ id: z.string().max(100) });
const paymentParams = z.object({ id: z.string().max(100), paymentId: z.uuid() });
const publicNote =
  'No sign-in: the request id in the link is what gives access. Rate limited per client address (429 with Retry-After).';

const actorOf = (request: FastifyRequest) => ({
  name: 'Payer',
  ipAddress: request.ip,
  requestId: String(request.id),
});

/** The query a provider put on the return URL, for the adapter's status call. */
function returnQueryOf(request: FastifyRequest): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, unknown>))
    if (typeof value === 'string' && key.length <= 100 && value.length <= 2000) query[key] = value;
  return query;
}

interface RouteOptions {
  pay: PayService;
  rateLimit: { max: number; timeWindow: string };
}

/** The page itself and the company's logo. */
function pageRoutes(app: FastifyInstance, { pay, rateLimit }: RouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/pay/:id',
    {
      config: { access: 'none', rateLimit },
      schema: {
        tags,
        summary: 'The payer page of a payment request, worked out for today',
        description: `${publicNote} An id that does not exist answers exactly like an expired request: { state: 'Expired' }.`,
        params: requestParams,
        response: { 200: payPageAnswerSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return uuidPattern.test(request.params.id)
        ? pay.page(request.params.id)
        : { state: 'Expired' as const };
    },
  );

  r.get(
    '/api/v0/pay/:id/logo',
    {
      config: { access: 'none', rateLimit },
      schema: {
        tags,
        summary: "The company's logo for the payer page (404 without one)",
        description: publicNote,
        params: requestParams,
      },
    },
    async (request, reply) => {
      if (!uuidPattern.test(request.params.id)) return reply.callNotFound();
      const logo = await pay.logo(request.params.id);
      return reply
        .header('content-type', logo.fileType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('cache-control', 'public, max-age=3600')
        .send(logo.data);
    },
  );
}

/** A payment's start, and its status asked of its provider. */
function paymentRoutes(app: FastifyInstance, { pay, rateLimit }: RouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v0/pay/:id/payments',
    {
      config: { access: 'none', rateLimit, operation: 'StartPayerPayment' },
      schema: {
        tags,
        summary: 'Start a payment with one of the page’s methods',
        description:
          `${publicNote} The amount is the server's (amount only for a request with partPayment, within its bounds). ` +
          '409: the request is expired, cancelled, already paid, or another payment is in progress; 422: the method or amount is not allowed; ' +
          '503: the provider could not be reached (the attempt is recorded Failed).',
        params: requestParams,
        body: startPaymentBodySchema,
        response: { 201: startedPaymentSchema },
      },
    },
    async (request, reply) => {
      const started = await pay.start(
        uuidPattern.test(request.params.id)
          ? request.params.id
          : '00000000-0000-0000-0000-000000000000',
        request.body,
        actorOf(request),
      );
      return reply.status(201).send(started);
    },
  );

  r.get(
    '/api/v0/pay/:id/payments/:paymentId',
    {
      config: { access: 'none', rateLimit },
      schema: {
        tags,
        summary: 'The outcome of a payment, for the page to poll',
        description:
          `${publicNote} While the payment is Processing the provider is asked (at most every few seconds) and its answer applied. ` +
          'The query the provider put on the return URL may be passed on. A payment of another request answers 404.',
        params: paymentParams,
        response: { 200: payPaymentStatusSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!uuidPattern.test(request.params.id)) return reply.callNotFound();
      return pay.status(
        request.params.id,
        request.params.paymentId,
        returnQueryOf(request),
        actorOf(request),
      );
    },
  );
}

/** The Sandbox card form's and the TranSafe PaymentFrame's answers. */
function cardFormRoutes(app: FastifyInstance, { pay, rateLimit }: RouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v0/pay/:id/payments/:paymentId/sandbox',
    {
      config: { access: 'none', rateLimit, operation: 'SandboxCardPayment' },
      schema: {
        tags,
        summary: 'The Sandbox provider’s test card form',
        description:
          `${publicNote} Card 4242424242424242 (or any other valid number) succeeds (Pending when the request's capture type is Reserve), ` +
          '4000000000000002 is declined, 4000000000003220 is reserved. Only for a payment through a Sandbox configuration.',
        params: paymentParams,
        body: sandboxCardBodySchema,
        response: { 200: payPaymentStatusSchema },
      },
    },
    async (request, reply) => {
      if (!uuidPattern.test(request.params.id)) return reply.callNotFound();
      return pay.sandbox(
        request.params.id,
        request.params.paymentId,
        request.body,
        actorOf(request),
      );
    },
  );

  r.post(
    '/api/v0/pay/:id/payments/:paymentId/transafe',
    {
      config: { access: 'none', rateLimit, operation: 'TranSafeCardTicket' },
      schema: {
        tags,
        summary: 'The card ticket of the TranSafe PaymentFrame',
        description:
          `${publicNote} The ticket and the frame's HMAC over it (monetra_resp_hmacsha256); the server charges the payment's own amount ` +
          "(transaction/purchase, or transaction/preauth when the request's capture type is Reserve) and answers the outcome. " +
          '409: not a TranSafe payment, or card details were already sent for it; 422: the ticket does not come from this payment’s frame.',
        params: paymentParams,
        body: tranSafeTicketBodySchema,
        response: { 200: payPaymentStatusSchema },
      },
    },
    async (request, reply) => {
      if (!uuidPattern.test(request.params.id)) return reply.callNotFound();
      return pay.cardTicket(
        request.params.id,
        request.params.paymentId,
        request.body,
        actorOf(request),
      );
    },
  );
}

/** The Opayo Pi drop-in's card identifier. */
function opayoRoutes(app: FastifyInstance, { pay, rateLimit }: RouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v0/pay/:id/payments/:paymentId/opayo',
    {
      config: { access: 'none', rateLimit, operation: 'OpayoCardIdentifier' },
      schema: {
        tags,
        summary: 'The card identifier of the Opayo Pi drop-in (Opayo.js)',
        description:
          `${publicNote} The card identifier Opayo.js gave the page for this payment's merchant session key, and the browser fields 3-D Secure asks for; ` +
          "the server charges the payment's own amount (POST /api/v1/transactions, Payment, or Deferred when the request's capture type is Reserve) " +
          'and answers the outcome, or `challenge` when the card issuer wants 3-D Secure (the page POSTs `creq` and `threeDSSessionData` to `acsUrl`). ' +
          '409: not an Opayo Pi payment, or card details were already sent for it; 422: the payment does not wait for a card identifier.',
        params: paymentParams,
        body: opayoCardBodySchema,
        response: { 200: payPaymentStatusSchema },
      },
    },
    async (request, reply) => {
      if (!uuidPattern.test(request.params.id)) return reply.callNotFound();
      const { cardIdentifier, browser } = request.body;
      return pay.cardTicket(
        request.params.id,
        request.params.paymentId,
        {
          ticket: cardIdentifier,
          browser: {
            ...browser,
            ipAddress: request.ip,
            userAgent: request.headers['user-agent'] ?? '',
            acceptHeader: request.headers.accept ?? '',
          },
        },
        actorOf(request),
      );
    },
  );
}

/**
 * The payer page's calls: `access: 'none'`, rate limited per client address. The page
 * itself (`/pay/{id}`) is served by the site's own entry.
 */
export async function payRoutes(
  app: FastifyInstance,
  options: { pay: PayService; perMinute: number },
) {
  const { pay } = options;
  const rateLimit = { max: options.perMinute, timeWindow: '1 minute' };
  for (const routes of [pageRoutes, paymentRoutes, cardFormRoutes, opayoRoutes])
    routes(app, { pay, rateLimit });
  await app.register(payChallengeRoutes, { pay, rateLimit, actorOf });
}
