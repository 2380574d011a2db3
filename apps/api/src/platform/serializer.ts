import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJsonStringify from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type RouteSchema =
  Parameters<FastifySchemaCompiler<z.ZodType>>[0]['schema'] | { properties: z.ZodType };

function zodSchemaOf(schema: RouteSchema): z.ZodType | null {
  if (schema instanceof z.ZodType) return schema;
  const wrapped = (schema as { properties?: unknown }).properties;
  return wrapped instanceof z.ZodType ? wrapped : null;
}

/**
 * Responses are written by fast-json-stringify from the JSON Schema of the route's zod response
 * schema (docs/decisions/017-responses-are-not-parsed-again.md "Responses are not parsed again"): the same schema the OpenAPI
 * document shows, compiled once per route, instead of a zod parse of every item of every answer
 * before JSON.stringify. Only the schema's properties are written, as zod's parse did. A schema
 * that JSON Schema cannot express (a transform, a custom type) keeps the zod serializer.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<RouteSchema> = (route) => {
  const schema = zodSchemaOf(route.schema);
  if (schema) {
    try {
      const jsonSchema = z.toJSONSchema(schema, {
        io: 'output',
        target: 'draft-7',
        unrepresentable: 'throw',
      });
      return fastJsonStringify(jsonSchema as Parameters<typeof fastJsonStringify>[0]);
    } catch {
      // Falls through to the zod serializer below.
    }
  }
  return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
};
