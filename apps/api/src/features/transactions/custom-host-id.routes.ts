import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  customHostIdExampleBody,
  customHostIdExampleResponse,
  customHostIdFields,
  customHostIdSettingSchema,
  updateCustomHostIdSettingBody,
} from '@ledgerline/contract';

import type { CustomHostIdRebuild } from './custom-host-id.jobs.js';
import type { CustomHostIdService } from './custom-host-id.service.js';
import { datasetScopeOf } from '../../platform/scope.js';

export interface CustomHostIdRoutesOptions {
  service: CustomHostIdService;
  rebuild: CustomHostIdRebuild;
}

const tags = ['company-settings'];
const language =
  'Parse value: literal text with `{field}` placeholders and `{{` / `}}` for literal braces; fields: ' +
  `${customHostIdFields.join(', ')}. A null field is empty text; trimWhiteSpace trims the result; ` +
  'at most 100 characters are kept; nothing left is null (docs/api.md, "Custom host id").';
const auditResource = { type: 'CustomHostIdSetting', id: 'transaction' };

/**
 * spec 3 §3, §5, §7 custom host id of accounting transactions (Preferences › Advanced), and spec
 * 2 §7 `POST transactions/custom-host-id/rebuild`. Reads need no permission; saving and
 * rebuilding need ConfigureSystemSettings (docs/decisions/027-custom-host-id.md, "Custom host id").
 */
export async function customHostIdRoutes(app: FastifyInstance, options: CustomHostIdRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, rebuild } = options;

  r.get(
    '/api/v0/company-settings/custom-host-id',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The custom host id setting of the company, with its rebuild state',
        description:
          'When none is saved: NeverCreate, NeverCreate, trimWhiteSpace true, parseValue null.',
        response: { 200: customHostIdSettingSchema },
      },
    },
    async (request) => request.tenantRead((tx) => service.get(tx, datasetScopeOf(request))),
  );

  r.put(
    '/api/v0/company-settings/custom-host-id',
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'UpdateCustomHostIdSetting',
      },
      schema: {
        tags,
        summary: 'Save the custom host id setting',
        description: `${language} The options apply to the next pushes; a rebuild applies the value to every transaction.`,
        body: updateCustomHostIdSettingBody,
        response: { 200: customHostIdSettingSchema },
      },
    },
    async (request) => {
      request.auditResource = auditResource;
      return request.unitOfWork((tx) => service.save(tx, datasetScopeOf(request), request.body));
    },
  );

  r.post(
    '/api/v0/company-settings/custom-host-id/example',
    {
      config: { access: 'dataset', operation: 'TestCustomHostIdParse' },
      schema: {
        tags,
        summary: 'Test parse: what a parse value gives an example transaction',
        description: `${language} An invalid parse value answers 400 with its message on parseValue. Nothing is saved.`,
        body: customHostIdExampleBody,
        response: { 200: customHostIdExampleResponse },
      },
    },
    async (request) => service.example(request.body),
  );

  const rebuildSchema = {
    summary: 'Rebuild the custom host id of every accounting transaction of the company',
    description:
      'Answers 202 with the setting in QueuedForRebuild; a background job moves it to Rebuilding and Completed (None if it ' +
      'fails). 409 `customHostIdRebuildBusy` while queued or rebuilding; 400 on parseValue when no setting is saved.',
    response: { 202: customHostIdSettingSchema },
  };
  async function requestRebuild(request: FastifyRequest) {
    const scope = datasetScopeOf(request);
    request.auditResource = auditResource;
    const setting = await request.unitOfWork((tx) => service.requestRebuild(tx, scope), 202);
    await rebuild.send(scope); // after the commit (style.md §7)
    return setting;
  }
  const rebuildConfig = {
    access: 'dataset',
    permission: 'ConfigureSystemSettings',
    operation: 'RebuildCustomHostIds',
  } as const;

  r.post(
    '/api/v0/transactions/custom-host-id/rebuild',
    { config: rebuildConfig, schema: { tags: ['transactions'], ...rebuildSchema } },
    async (request, reply) => reply.status(202).send(await requestRebuild(request)),
  );
  r.post(
    '/api/v0/company-settings/custom-host-id/rebuild',
    { config: rebuildConfig, schema: { tags, ...rebuildSchema } },
    async (request, reply) => reply.status(202).send(await requestRebuild(request)),
  );
}
