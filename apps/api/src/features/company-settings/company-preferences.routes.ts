import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companyPreferencesMessages as m,
  reminderMessages,
  companyPreferencesSchema,
  paymentRequestSettingsSchema,
  preferencesPageSchema,
  savePreferencesPageBody,
  updateCompanyPreferencesBody,
  updatePaymentRequestSettingsBody,
  type UpdateCompanyPreferencesBody,
  type UpdatePaymentRequestSettingsInput,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import {
  latePaymentConfigurations,
  settlementConfigurationGroups,
} from '../../db/schema-money-rules.js';
import { reminderSchedules } from '../../db/schema-reminders.js';
import { datasetScopeOf, type DatasetScope } from '../../platform/scope.js';
import { ValidationError } from '../../platform/errors.js';
import { findCountry } from '../geo-data/index.js';
import { createCustomHostIdRepository } from '../transactions/index.js';
import { createCustomHostIdService } from '../transactions/index.js';
import {
  companyHas,
  readPaymentRequestSettings,
  readPreferences,
  savePreferences,
} from './company-preferences.repository.js';

const tags = ['company-settings'];

/** Checks the ids and the country against the company's records, then saves what the body names. */
async function saveGeneral(tx: Tx, scope: DatasetScope, body: UpdateCompanyPreferencesBody) {
  const errors: Record<string, string[]> = {};
  const group = body.defaultSettlementConfigurationGroupId;
  if (group && !(await companyHas(tx, scope, settlementConfigurationGroups, group)))
    errors.defaultSettlementConfigurationGroupId = [m.groupNotFound];
  const latePayment = body.defaultLatePaymentConfigurationId;
  if (latePayment && !(await companyHas(tx, scope, latePaymentConfigurations, latePayment)))
    errors.defaultLatePaymentConfigurationId = [m.latePaymentNotFound];
  const reminderSchedule = body.defaultReminderScheduleId;
  if (reminderSchedule && !(await companyHas(tx, scope, reminderSchedules, reminderSchedule)))
    errors.defaultReminderScheduleId = [reminderMessages.scheduleNotFound];
  if (body.defaultCountryId !== undefined && !findCountry(body.defaultCountryId))
    errors.defaultCountryId = [m.defaultCountryUnknown];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  await savePreferences(
    tx,
    scope,
    Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)),
  );
}

async function saveRequestSettings(
  tx: Tx,
  scope: DatasetScope,
  body: UpdatePaymentRequestSettingsInput,
) {
  await savePreferences(tx, scope, {
    validUntilUnit: body.validUntilAddition?.unit ?? null,
    validUntilQuantity: body.validUntilAddition?.quantity ?? 0,
    defaultUsageType: body.defaultUsageType,
  });
}

/** A part's field messages under its key in the combined body (`customHostId.parseValue`). */
async function asPart<T>(part: string, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors = Object.fromEntries(
      Object.entries(error.extra.errors ?? {}).map(([field, list]) => [`${part}.${field}`, list]),
    );
    throw new ValidationError(errors, error.detail);
  }
}

/**
 * spec 3 §7 company-settings/preferences (the general preferences and the defaults of spec 3 §4
 * "Default groups") and company-settings/payment-request (the payment request settings). Reading
 * needs no permission (the New Request dialogs read the defaults); saving needs
 * ConfigureSystemSettings. Saved values apply to the next call at once.
 */
const path = '/api/v0/company-settings/preferences';
const requestSettingsPath = '/api/v0/company-settings/payment-request';

/** The Preferences tab: read and save. */
function preferencesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
    async (request) => request.tenantRead((tx) => readPreferences(tx, datasetScopeOf(request))),
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
      const scope = datasetScopeOf(request);
      return request.unitOfWork(async (tx) => {
        await saveGeneral(tx, scope, request.body);
        return readPreferences(tx, scope);
      });
    },
  );
}

/** The payment request settings: read and save. */
function paymentRequestSettingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
    async (request) =>
      request.tenantRead((tx) => readPaymentRequestSettings(tx, datasetScopeOf(request))),
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
      const scope = datasetScopeOf(request);
      return request.unitOfWork(async (tx) => {
        await saveRequestSettings(tx, scope, request.body);
        return readPaymentRequestSettings(tx, scope);
      });
    },
  );
}

/** The custom host id of every company's preferences. */
function customHostIdRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const customHostIds = createCustomHostIdService({ repository: createCustomHostIdRepository() });
  r.put(
    '/api/v0/company-settings/all-preferences',
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'UpdatePreferences',
      },
      schema: {
        tags,
        summary:
          "The Preferences page's one Save: general preferences, payment request settings and custom host id, all or nothing",
        description:
          'spec 3 §2: if either part fails nothing is saved. The three parts are saved in one transaction, in this order; ' +
          'a refusal of any (its body, an unknown country or default, a parse value that does not parse) answers 400 with ' +
          'its field messages keyed `preferences.…`, `paymentRequest.…` or `customHostId.…`, and nothing is saved.',
        body: savePreferencesPageBody,
        response: { 200: preferencesPageSchema },
      },
    },
    async (request) => {
      const scope = datasetScopeOf(request);
      const body = request.body;
      return request.unitOfWork(async (tx) => {
        await asPart('preferences', () => saveGeneral(tx, scope, body.preferences));
        await saveRequestSettings(tx, scope, body.paymentRequest);
        const customHostId = await asPart('customHostId', () =>
          customHostIds.save(tx, scope, body.customHostId),
        );
        return {
          preferences: await readPreferences(tx, scope),
          paymentRequest: await readPaymentRequestSettings(tx, scope),
          customHostId,
        };
      });
    },
  );
}

export async function companyPreferencesRoutes(app: FastifyInstance) {
  preferencesRoutes(app);
  paymentRequestSettingsRoutes(app);
  customHostIdRoutes(app);
}

export default companyPreferencesRoutes;
