import type { FastifyRequest } from 'fastify';
import { requirePrincipal } from '../../platform/context.js';
import type { AccountScope } from './accounts.repository.js';

/** The company of the call: the tenant of the caller and the Dataset-Id it sent (design §3). */
export function scopeOf(request: FastifyRequest): AccountScope {
  const { tenantId } = requirePrincipal(request.principal);
  if (request.datasetId === null) throw new Error('Accounts routes need access: dataset.');
  return { tenantId, datasetId: request.datasetId };
}

export const erpWriteAccess =
  'Needs the PushErpData permission: an access key, an Administrator or a Standard user (docs/decisions.md, "ERP data writes").';
