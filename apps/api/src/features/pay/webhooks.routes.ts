import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problem, sendProblem } from '../../platform/problems.js';
import type { ProviderNotices } from './provider-notices.js';

/**
 * Provider notices (a provider telling us about a payment): the body is kept as the exact bytes received (signatures are
 * over them), so this plugin replaces the JSON parser with a raw one for its own route only.
 */
export async function webhooksRoutes(
  app: FastifyInstance,
  options: { notices: ProviderNotices; publicUrl: string; perMinute: number },
) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/v0/webhooks/:provider/:configurationId',
    {
      config: { access: 'none', rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
      schema: {
        tags: ['pay'],
        summary: 'A payment provider’s notification about payer-page payments',
        description:
          'No sign-in: the provider’s signature is verified before anything is read (Sandbox: `Sandbox-Signature: sha256=<hex HMAC-SHA256 of the body>`); ' +
          'a wrong one answers the provider’s expected code and changes nothing. Each event is stored once per (provider, event id) and ' +
          'settled right after the answer, with a delayed background job as the safety net: 200 at once. An unknown provider or configuration answers 404.',
        params: z.object({ provider: z.string().max(50), configurationId: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const answer = await options.notices.receive({
        provider: request.params.provider,
        configurationId: request.params.configurationId,
        headers: request.headers,
        rawBody,
        url: `${options.publicUrl}${request.url}`,
      });
      if (answer.kind === 'unknown')
        return sendProblem(reply, problem(404, 'No such payment provider configuration.'));
      if (answer.kind === 'refused')
        return reply
          .status(answer.statusCode)
          .type(answer.contentType ?? 'text/plain')
          .send(answer.body);
      // A provider that expects its own answer (Opayo Server: `Status=OK`, `RedirectURL=…`).
      if (answer.reply) return reply.type(answer.reply.contentType).send(answer.reply.body);
      return { received: answer.events };
    },
  );
}
