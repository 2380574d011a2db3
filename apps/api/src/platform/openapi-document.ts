import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { withConnectorExamples } from './openapi-examples.js';

type OpenApiDocument = ReturnType<typeof jsonSchemaTransformObject>;

/**
 * The OpenAPI document of every route registered after it, at /api/v0/openapi.json and /api/docs.
 * `extend` adds what no route declares (the web hook events Ledgerline sends).
 */
export async function registerOpenApi(
  app: FastifyInstance,
  extend: (document: OpenApiDocument) => OpenApiDocument,
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ledgerline API',
        version: 'v0',
        description:
          'The API behind the Ledgerline site and for ERP connectors. Browser clients use the session ' +
          'cookie and the X-XSRF-TOKEN header; machine clients send `Authorization: Bearer <access key>`. ' +
          'Company-scoped calls take the `Dataset-Id` header. Errors are RFC 9457 problem documents.',
      },
      components: {
        securitySchemes: {
          accessKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An access key from Settings › Access Keys',
          },
          session: { type: 'apiKey', in: 'cookie', name: 'ledgerline_session' },
        },
      },
      security: [{ accessKey: [] }, { session: [] }],
    },
    transform: jsonSchemaTransform,
    // The components the paths' $refs name (every schema with a meta id), with the connector
    // examples, and what `extend` adds.
    transformObject: (document) =>
      extend(withConnectorExamples(jsonSchemaTransformObject(document))),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get(
    '/api/v0/openapi.json',
    { config: { access: 'none' }, schema: { hide: true } },
    async () => app.swagger(),
  );
}
