import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountInfoSchema,
  companySettingsSchema,
  logoLimits,
  logoMessages,
  logoSchema,
  updateCompanySettingsBody,
} from '@ledgerline/contract';
import { datasetScopeOf } from '../../platform/scope.js';
import { ValidationError } from '../../platform/errors.js';
import { readOneFile } from '../../platform/uploads.js';
import type { CompanySettingsService } from './company-settings.service.js';

const tags = ['company-settings'];
const settingsResource = (request: FastifyRequest) => ({
  type: 'CompanySettings',
  id: String(request.datasetId),
});

/** The logo of the upload, in the field imageFile, with the optional field originalFilename. */
async function readLogoUpload(request: FastifyRequest) {
  const file = await readOneFile(request, {
    maxBytes: logoLimits.maxBytes,
    maxFields: 1,
    messages: {
      required: logoMessages.required,
      tooLarge: logoMessages.tooLarge,
      oneFileAtATime: logoMessages.oneFileAtATime,
      malformed: logoMessages.malformed,
    },
  });
  if (file.fieldName !== 'imageFile')
    throw new ValidationError({ imageFile: [logoMessages.required] }, logoMessages.required);
  return { data: file.data, fileName: file.fields.originalFilename?.trim() || file.fileName };
}

/** The company's details: read and save. */
function detailsRoutes(app: FastifyInstance, service: CompanySettingsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/company-settings',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The company details and the logo address',
        response: { 200: companySettingsSchema },
      },
    },
    async (request) => request.tenantRead((tx) => service.get(tx, datasetScopeOf(request))),
  );

  r.put(
    '/api/v0/company-settings',
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'UpdateCompanySettings',
      },
      schema: {
        tags,
        summary: 'Save the company details (spec 3 §5)',
        description:
          'Texts are trimmed; empty optional texts are saved as null. The website must begin with https://.',
        body: updateCompanySettingsBody,
        response: { 200: companySettingsSchema },
      },
    },
    async (request) => {
      request.auditResource = settingsResource(request);
      return request.unitOfWork((tx) => service.save(tx, datasetScopeOf(request), request.body));
    },
  );
}

/** The account information, and uploading the logo. */
function accountInfoRoutes(app: FastifyInstance, service: CompanySettingsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/company-settings/account-info',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The tenant and company the caller works in',
        response: { 200: accountInfoSchema },
      },
    },
    async (request) => request.tenantRead((tx) => service.accountInfo(tx, datasetScopeOf(request))),
  );

  r.put(
    '/api/v0/company-settings/logo',
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'UploadCompanyLogo',
      },
      schema: {
        tags,
        summary: 'Upload the logo (multipart/form-data: imageFile, originalFilename)',
        description:
          'A name ending in .jpg, .jpeg, .png or .svg (any case), 50 to 4194304 bytes (413 past it), and JPEG, PNG or SVG ' +
          'recognised from the bytes whatever the name says. An SVG is sanitised: no script, event ' +
          'handler, style, foreign content or reference outside the file is kept. Replaces the previous logo.',
        consumes: ['multipart/form-data'],
        response: { 200: logoSchema },
      },
    },
    async (request) => {
      const logo = await service.prepareLogo(await readLogoUpload(request));
      request.auditResource = settingsResource(request);
      return request.unitOfWork((tx) => service.saveLogo(tx, datasetScopeOf(request), logo));
    },
  );
}

/** The logo: read and remove. */
function logoRoutes(app: FastifyInstance, service: CompanySettingsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/company-settings/logo',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The bytes of the logo',
        description: 'Sent with nosniff and a sandboxing CSP; 404 without a logo.',
      },
    },
    async (request, reply) => {
      const logo = await request.tenantRead((tx) => service.logo(tx, datasetScopeOf(request)));
      return reply
        .header('content-type', logo.fileType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('cache-control', 'private, max-age=86400')
        .send(logo.data);
    },
  );

  r.delete(
    '/api/v0/company-settings/logo',
    {
      config: {
        access: 'dataset',
        permission: 'ConfigureSystemSettings',
        operation: 'DeleteCompanyLogo',
      },
      schema: { tags, summary: 'Clear the logo (answers 204; 404 without one)' },
    },
    async (request, reply) => {
      request.auditResource = settingsResource(request);
      await request.unitOfWork((tx) => service.removeLogo(tx, datasetScopeOf(request)), 204);
      return reply.status(204).send();
    },
  );
}

/** spec 3 §2, §5, §7 company details, customisation (logo) and account info. */
export async function companySettingsRoutes(
  app: FastifyInstance,
  options: { service: CompanySettingsService },
) {
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);
  detailsRoutes(app, options.service);
  accountInfoRoutes(app, options.service);
  logoRoutes(app, options.service);
}
