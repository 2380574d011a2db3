import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  statementLinkSchema,
  statementPageSchema,
  statementPayBody,
  statementPaySchema,
  uuidParam,
} from '@ledgerline/contract';
import { datasetScopeOf } from '../../platform/scope.js';
import { issueStatementLink } from './statement-links.js';
import { statementPdf } from './statement-pdf.js';
import type { StatementsService } from './statements.service.js';

const tags = ['statements'];
const tokenParams = z.object({ token: z.string().max(200) });
const publicNote =
  'No sign-in: the token in the statement link is what gives access. 404 for a token that does not exist, 410 once the link has expired. ' +
  'Rate limited per client address (429 with Retry-After).';

/**
 * Account statements: the staff call that issues a link, and the public statement
 * page's calls. The page itself (`/statement/{token}`) is the payer page's entry (pay.html).
 */
export interface StatementsRoutesOptions {
  statements: StatementsService;
  publicUrl: string;
  /** How many calls of the public statement page a client address may make a minute. */
  perMinute: number;
}

/** What the statements' route functions use. */
interface StatementsRoutesDeps {
  statements: StatementsService;
  publicUrl: string;
  rateLimit: { max: number; timeWindow: string };
}

export async function statementsRoutes(app: FastifyInstance, options: StatementsRoutesOptions) {
  const deps: StatementsRoutesDeps = {
    statements: options.statements,
    publicUrl: options.publicUrl,
    rateLimit: { max: options.perMinute, timeWindow: '1 minute' },
  };
  issueStatementLinkRoute(app, deps);
  getStatement(app, deps);
  getStatementPdf(app, deps);
  payStatement(app, deps);
}

function issueStatementLinkRoute(app: FastifyInstance, deps: StatementsRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/accounts/:id/statement-link',
    {
      config: {
        access: 'dataset',
        permission: 'EditPaymentRequest',
        operation: 'CreateStatementLink',
      },
      schema: {
        tags,
        summary:
          "A new link to the account's statement, where the payer pays some or all of its open invoices at once",
        description:
          'Needs EditPaymentRequest (whoever may create payment requests). Each call issues a new link; earlier ones keep working until they expire. ' +
          "The link expires as new payment request links do (company preferences' default link expiry); expiresAt null: it does not expire. " +
          '404 when the account is not in this company.',
        params: uuidParam,
        response: { 201: statementLinkSchema },
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'Account', id: request.params.id };
      const scope = datasetScopeOf(request);
      const link = await request.unitOfWork(
        (tx) =>
          issueStatementLink(
            tx,
            { tenantId: scope.tenantId, datasetId: String(scope.datasetId) },
            request.params.id,
            deps.publicUrl,
          ),
        201,
      );
      return reply
        .status(201)
        .send({ url: link.url, expiresAt: link.expiresAt?.toISOString() ?? null });
    },
  );
}

function getStatement(app: FastifyInstance, deps: StatementsRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/statements/:token',
    {
      config: { access: 'none', rateLimit: deps.rateLimit },
      schema: {
        tags,
        summary:
          "An account's statement: every open invoice, oldest first, with what it costs if paid today",
        description: publicNote,
        params: tokenParams,
        response: { 200: statementPageSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return deps.statements.page(request.params.token);
    },
  );
}

function getStatementPdf(app: FastifyInstance, deps: StatementsRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/statements/:token/pdf',
    {
      config: { access: 'none', rateLimit: deps.rateLimit },
      schema: {
        tags,
        summary: 'The statement as a PDF',
        description: publicNote,
        params: tokenParams,
      },
    },
    async (request, reply) => {
      const statement = await deps.statements.page(request.params.token);
      const name = `statement-${statement.accountReference.replace(/[^A-Za-z0-9_-]/g, '_')}-${statement.quotedOn}.pdf`;
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('x-content-type-options', 'nosniff')
        .send(statementPdf(statement));
    },
  );
}

function payStatement(app: FastifyInstance, deps: StatementsRoutesDeps) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/statements/:token/pay',
    {
      config: { access: 'none', rateLimit: deps.rateLimit, operation: 'PayStatement' },
      schema: {
        tags,
        summary: 'Pay the invoices ticked: the payment request to pay them with, made or reused',
        description:
          `${publicNote} The invoices must be open on the statement and in one currency (422 otherwise). ` +
          'An Open request this statement made for exactly these invoices is reused; else a new Transaction request asks each invoice in full. ' +
          'The payer continues at payUrl (the payer page), where the amounts are worked out for the day as always.',
        params: tokenParams,
        body: statementPayBody,
        response: { 201: statementPaySchema },
      },
    },
    async (request, reply) => {
      const answer = await deps.statements.pay(request.params.token, request.body.transactionIds, {
        ipAddress: request.ip,
        requestId: String(request.id),
      });
      return reply.status(201).send(answer);
    },
  );
}
