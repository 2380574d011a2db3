import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import {
  companyPreferencesMessages,
  companyPreferencesSchema,
  updateCompanyPreferencesBody,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import {
  companyPreferences,
  latePaymentConfigurations,
  settlementConfigurationGroups,
} from '../../db/schema-money-rules.js';
import { requirePrincipal } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import {
  readCompanyPreferences,
  type MoneyRulesScope,
} from '../money-rules/money-rules.repository.js';

function scopeOf(request: FastifyRequest): MoneyRulesScope {
  const { tenantId } = requirePrincipal(request.principal);
  if (request.datasetId === null) throw new Error('Preferences routes need access: dataset.');
  return { tenantId, datasetId: request.datasetId };
}

async function exists(
  tx: Tx,
  scope: MoneyRulesScope,
  table: typeof settlementConfigurationGroups | typeof latePaymentConfigurations,
  id: string,
) {
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(
      and(
        eq(table.tenantId, scope.tenantId),
        eq(table.datasetId, scope.datasetId),
        eq(table.id, id),
      ),
    )
    .for('share');
  return rows.length > 0;
}

/**
 * spec 3 §7 company-settings/preferences, the part the money rules need: the default settlement
 * group and late-payment configuration (spec 3 §4 "Default groups"). Kept in its own file so the
 * company-settings area can extend the body; PUT changes only the fields it carries.
 */
export async function companyPreferencesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const path = '/api/v0/company-settings/preferences';

  r.get(
    path,
    {
      config: { access: 'dataset' },
      schema: {
        tags: ['company-settings'],
        summary: "The company's preferences",
        response: { 200: companyPreferencesSchema },
      },
    },
    async (request) => request.tenantRead((tx) => readCompanyPreferences(tx, scopeOf(request))),
  );

  r.put(
    path,
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'UpdateCompanyPreferences',
      },
      schema: {
        tags: ['company-settings'],
        summary: 'Set or remove the default settlement group and late payment configuration',
        description:
          'null removes a default; an absent field stays. An id of no group or configuration of this company is a 400.',
        body: updateCompanyPreferencesBody,
        response: { 200: companyPreferencesSchema },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const body = request.body;
      return request.unitOfWork(async (tx) => {
        const errors: Record<string, string[]> = {};
        if (
          body.defaultSettlementConfigurationGroupId &&
          !(await exists(
            tx,
            scope,
            settlementConfigurationGroups,
            body.defaultSettlementConfigurationGroupId,
          ))
        )
          errors.defaultSettlementConfigurationGroupId = [companyPreferencesMessages.groupNotFound];
        if (
          body.defaultLatePaymentConfigurationId &&
          !(await exists(
            tx,
            scope,
            latePaymentConfigurations,
            body.defaultLatePaymentConfigurationId,
          ))
        )
          errors.defaultLatePaymentConfigurationId = [
            companyPreferencesMessages.latePaymentNotFound,
          ];
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        const changes = {
          ...(body.defaultSettlementConfigurationGroupId !== undefined && {
            defaultSettlementConfigurationGroupId: body.defaultSettlementConfigurationGroupId,
          }),
          ...(body.defaultLatePaymentConfigurationId !== undefined && {
            defaultLatePaymentConfigurationId: body.defaultLatePaymentConfigurationId,
          }),
        };
        await tx
          .insert(companyPreferences)
          .values({ ...scope, ...changes })
          .onConflictDoUpdate({
            target: [companyPreferences.tenantId, companyPreferences.datasetId],
            set: { ...changes, updatedOn: new Date() },
          });
        return readCompanyPreferences(tx, scope);
      });
    },
  );
}

export default companyPreferencesRoutes;
