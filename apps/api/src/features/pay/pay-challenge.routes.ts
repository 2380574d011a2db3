import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opayoChallengeBodySchema, uuidPattern } from '@ledgerline/contract';
import type { FinishActor } from './finish.js';
import type { PayService } from './pay.service.js';

/**
 * The card issuer's 3-D Secure page POSTs the payer's browser back here (a form: `cres`,
 * `threeDSSessionData`), so this plugin reads form bodies for its own route only.
 */
export async function payChallengeRoutes(
  app: FastifyInstance,
  options: {
    pay: PayService;
    rateLimit: { max: number; timeWindow: string };
    actorOf: (request: FastifyRequest) => FinishActor;
  },
) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/v0/pay/:id/payments/:paymentId/3ds',
    {
      config: { access: 'none', rateLimit: options.rateLimit, operation: 'CardChallengeReturn' },
      schema: {
        tags: ['pay'],
        summary: "The card issuer's 3-D Secure answer (Opayo Pi)",
        description:
          'No sign-in: the card issuer’s page POSTs the payer back with the form fields `cres` and `threeDSSessionData`. ' +
          'The first answer for a payment waiting for 3-D Secure is sent to the provider and settles the payment; any other changes nothing. ' +
          'Always 303 to the payer page’s outcome (`/pay/{id}?payment={paymentId}`).',
        params: z.object({ id: z.string().max(100), paymentId: z.uuid() }),
        body: opayoChallengeBodySchema,
      },
    },
    async (request, reply) => {
      if (!uuidPattern.test(request.params.id)) return reply.callNotFound();
      const pageUrl = await options.pay.completeChallenge(
        request.params.id,
        request.params.paymentId,
        request.body,
        options.actorOf(request),
      );
      return reply.redirect(pageUrl, 303);
    },
  );
}
