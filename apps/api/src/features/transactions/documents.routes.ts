import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  documentLimits,
  documentMessages,
  documentParams,
  transactionDocumentSchema,
  uuidParam,
} from '@ledgerline/contract';

import { ValidationError } from '../../platform/errors.js';
import { readOneFile } from '../../platform/uploads.js';
import type { DocumentsService } from './documents.service.js';
import { contentDisposition } from './file-kind.js';
import { datasetScopeOf } from '../../platform/scope.js';

/** The one file of the upload, in the field "file", read whole (at most documentLimits.maxBytes). */
async function readUpload(request: FastifyRequest) {
  const file = await readOneFile(request, {
    maxBytes: documentLimits.maxBytes,
    maxFields: 0,
    messages: {
      required: documentMessages.fileRequired,
      tooLarge: documentMessages.fileTooLarge,
      oneFileAtATime: documentMessages.oneFileAtATime,
      malformed: documentMessages.malformed,
    },
  });
  if (file.fieldName !== 'file')
    throw new ValidationError(
      { file: [documentMessages.fileRequired] },
      documentMessages.fileRequired,
    );
  return { fileName: file.fileName, data: file.data };
}

const tags = ['transactions'];

/** spec 2 §2, §7 documents of an accounting transaction; limits and the type list: docs/api.md. */
export async function documentsRoutes(
  app: FastifyInstance,
  options: { documents: DocumentsService },
) {
  const { documents } = options;
  // Another area may already parse multipart for the whole app; then this scope inherits it.
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);
  uploadDocument(app, documents);
  downloadDocument(app, documents);
  deleteDocument(app, documents);
}

function uploadDocument(app: FastifyInstance, documents: DocumentsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0/transactions/:id/documents',
    {
      config: {
        access: 'dataset',
        permission: 'UploadTransactionDocument',
        operation: 'UploadTransactionDocument',
      },
      schema: {
        tags,
        summary: 'Attach a document (multipart/form-data, one file in the field "file")',
        description:
          'At most 10 MB (413 past it). The type is recognised from the bytes: PDF, PNG, JPEG, GIF, WebP, TIFF, Office (docx, xlsx, pptx, ' +
          'doc, xls), OpenDocument (odt, ods) or UTF-8 text; anything else is a 400. The bytes are kept in the database.',
        consumes: ['multipart/form-data'],
        params: uuidParam,
        response: { 201: transactionDocumentSchema },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request);
      const document = await request.unitOfWork(async (tx) => {
        const created = await documents.upload(
          tx,
          datasetScopeOf(request),
          request.params.id,
          upload,
        );
        request.auditResource = { type: 'TransactionDocument', id: created.id };
        return created;
      }, 201);
      return reply.status(201).send(document);
    },
  );
}

function downloadDocument(app: FastifyInstance, documents: DocumentsService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0/transactions/:id/documents/:documentId/data',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'The bytes of a document',
        description:
          'Content-Disposition carries the file name: inline for a PDF (the viewer), attachment otherwise. Sent with nosniff.',
        params: documentParams,
      },
    },
    async (request, reply) => {
      const document = await request.tenantRead((tx) =>
        documents.download(
          tx,
          datasetScopeOf(request),
          request.params.id,
          request.params.documentId,
        ),
      );
      return reply
        .header('content-type', document.fileType)
        .header('content-disposition', contentDisposition(document.fileName, document.fileType))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(document.data);
    },
  );
}

function deleteDocument(app: FastifyInstance, documents: DocumentsService) {
  app.withTypeProvider<ZodTypeProvider>().delete(
    '/api/v0/transactions/:id/documents/:documentId',
    {
      config: {
        access: 'dataset',
        permission: 'DeleteTransactionDocument',
        operation: 'DeleteTransactionDocument',
      },
      schema: {
        tags,
        summary: 'Delete a document (answers 204)',
        description:
          'spec 2 §7 writes this path without the document id; Ledgerline names the document in the path (docs/api.md).',
        params: documentParams,
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'TransactionDocument', id: request.params.documentId };
      await request.unitOfWork(
        (tx) =>
          documents.remove(
            tx,
            datasetScopeOf(request),
            request.params.id,
            request.params.documentId,
          ),
        204,
      );
      return reply.status(204).send();
    },
  );
}
