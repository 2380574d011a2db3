import { z } from 'zod';
import {
  webHookEventData,
  webHookEventDescriptions,
  webHookEventSchema,
  webHookEventTypes,
} from '@ledgerline/contract';

type Document = {
  components?: { schemas?: Record<string, unknown> };
  webhooks?: Record<string, unknown>;
};

const signatureHeaders = [
  ['webhook-id', 'The event id; the same on every attempt (deduplicate on it).'],
  ['webhook-timestamp', 'Seconds since 1970 when this attempt was signed.'],
  [
    'webhook-signature',
    'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}"> keyed with the endpoint’s whsec_ secret (Standard Webhooks).',
  ],
] as const;

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, its body the event
 * envelope with the contract's schema of `data`, referring to the same components as the paths.
 */
export function withWebHooks<T extends object>(document: T): T {
  const doc = document as Document;
  const schemas = (doc.components ??= {}).schemas ?? (doc.components.schemas = {});
  const webhooks: Record<string, unknown> = {};
  for (const type of webHookEventTypes) {
    const json = z.toJSONSchema(webHookEventSchema(type, webHookEventData[type]), {
      io: 'output',
      unrepresentable: 'any',
    }) as Record<string, unknown> & { $defs?: Record<string, unknown> };
    const { $defs = {}, $schema: _schema, ...body } = json;
    const relinked = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'),
      ) as unknown;
    for (const [name, schema] of Object.entries($defs)) schemas[name] ??= relinked(schema);
    webhooks[type] = {
      post: {
        summary: type,
        description: webHookEventDescriptions[type],
        tags: ['web-hooks'],
        parameters: signatureHeaders.map(([name, description]) => ({
          in: 'header',
          name,
          required: true,
          description,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: relinked(body) } },
        },
        responses: {
          '2XX': { description: 'Received. Any other answer, or none within 15 s, is retried.' },
        },
      },
    };
  }
  doc.webhooks = webhooks;
  return document;
}
