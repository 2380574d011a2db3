import {
  createAccountBody,
  createBankBody,
  createPayerBody,
  createTransactionBody,
  updateBankBody,
  upsertAccountBody,
} from '@ledgerline/contract';
import type { z } from 'zod';

/** The bodies ERP connectors send, whose contract schemas carry an example. */
export const connectorBodies: readonly z.ZodType[] = [
  createAccountBody,
  upsertAccountBody,
  createBankBody,
  updateBankBody,
  createPayerBody,
  createTransactionBody,
];

interface OpenApiDocument {
  components?: { schemas?: Record<string, object> };
}

/**
 * Puts the connector bodies' examples back on their request components. Zod leaves `examples` out
 * of a transforming schema's input JSON Schema (they could be output-shaped); ours are bodies as a
 * connector sends them, which a test parses with the same schema.
 */
export function withConnectorExamples<T extends object>(document: T): T {
  const schemas = (document as OpenApiDocument).components?.schemas;
  for (const body of connectorBodies) {
    const meta = body.meta();
    const component = schemas?.[`${String(meta?.id)}Input`];
    if (component && meta?.examples) Object.assign(component, { examples: meta.examples });
  }
  return document;
}
