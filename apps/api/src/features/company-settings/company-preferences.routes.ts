import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companyPreferencesMessages as m,
  companyPreferencesSchema,
  paymentRequestSettingsSchema,
  updateCompanyPreferencesBody,
  updatePaymentRequestSettingsBody,
} from '@ledgerline/contract';
import {
  latePaymentConfigurations,
  settlementConfigurationGroups,
} from '../../db/schema-money-rules.js';
import { requirePrincipal } from '../../platform/context.js';
import { ValidationError } from '../../platform/errors.js';
import { findCountry } from '../geo-data/geo-data.routes.js';
import {
  companyHas,
  readPaymentRequestSettings,
  readPreferences,
  savePreferences,
  type PreferencesScope,
} from './company-preferences.repository.js';

function scopeOf(request: FastifyRequest): PreferencesScope {
  const { tenantId } = requirePrincipal(request.principal);
  if (request.datasetId === null) throw new Error('Preferences routes need access: dataset.');
  return { tenantId, datasetId: request.datasetId };
}

const tags = ['company-settings'];

/**
 * spec 3 §7 company-settings/preferences (the general preferences and the defaults of spec 3 §4
 * "Default groups") and company-settings/payment-request (the payment request settings). Reading
 * needs no permission (the New Request dialogs read the defaults); saving needs
 * ConfigureSystemSettings. Saved values apply to the next call at once.
 */
export async function companyPreferencesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const path = '/api/v0/company-settings/preferences';
  const requestSettingsPath = '/api/v0/company-settings/payment-request';

  r.get(
    path,
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: "The company's preferences",
        description: 'A company that has saved none reads the defaults (country 826, GB).',
        response: { 200: companyPreferencesSchema },
      },
    },
    async (request) => request.tenantRead((tx) => readPreferences(tx, scopeOf(request))),
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
        tags,
        summary:
          'Save the general preferences and the default settlement group and late payment configuration',
        description:
          'null removes a default; an absent field stays. An id of no group or configuration of this company, ' +
          'or a country id that is no ISO 3166-1 numeric code, is a 400.',
        body: updateCompanyPreferencesBody,
        response: { 200: companyPreferencesSchema },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const body = request.body;
      return request.unitOfWork(async (tx) => {
        const errors: Record<string, string[]> = {};
        const group = body.defaultSettlementConfigurationGroupId;
        if (group && !(await companyHas(tx, scope, settlementConfigurationGroups, group)))
          errors.defaultSettlementConfigurationGroupId = [m.groupNotFound];
        const latePayment = body.defaultLatePaymentConfigurationId;
        if (latePayment && !(await companyHas(tx, scope, latePaymentConfigurations, latePayment)))
          errors.defaultLatePaymentConfigurationId = [m.latePaymentNotFound];
        if (body.defaultCountryId !== undefined && !findCountry(body.defaultCountryId))
          errors.defaultCountryId = [m.defaultCountryUnknown];
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        await savePreferences(
          tx,
          scope,
          Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)),
        );
        return readPreferences(tx, scope);
      });
    },
  );

  r.get(
    requestSettingsPath,
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The payment request settings: default link expiry, usage type and link size',
        response: { 200: paymentRequestSettingsSchema },
      },
    },
    async (request) => request.tenantRead((tx) => readPaymentRequestSettings(tx, scopeOf(request))),
  );

  r.put(
    requestSettingsPath,
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'UpdatePaymentRequestSettings',
      },
      schema: {
        tags,
        summary: 'Save the payment request settings',
        description:
          'The quantity is a whole number from 0 to 500 days, 24 weeks, 24 months or 5 years; 0 or a null ' +
          'validUntilAddition means links do not expire. New requests without a valid-to date get ' +
          'validFrom (or now) plus this addition, and the default usage type.',
        body: updatePaymentRequestSettingsBody,
        response: { 200: paymentRequestSettingsSchema },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const { validUntilAddition, defaultUsageType } = request.body;
      return request.unitOfWork(async (tx) => {
        await savePreferences(tx, scope, {
          validUntilUnit: validUntilAddition?.unit ?? null,
          validUntilQuantity: validUntilAddition?.quantity ?? 0,
          defaultUsageType,
        });
        return readPaymentRequestSettings(tx, scope);
      });
    },
  );
}

export default companyPreferencesRoutes;
