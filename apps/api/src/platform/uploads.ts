import type { FastifyRequest } from 'fastify';
import { AppError, ValidationError } from './errors.js';

export interface UploadMessages {
  /** No file, or not multipart at all. */
  required: string;
  tooLarge: string;
  oneFileAtATime: string;
  malformed: string;
}

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  data: Buffer;
  /** The text fields of the form, by name (at most maxFields). */
  fields: Record<string, string>;
}

const badRequest = (message: string) => new ValidationError({ file: [message] }, message);

/**
 * The one file of a multipart upload, read whole. Every part is read,
 * so a second file is refused rather than silently dropped, and what the multipart parser cannot
 * read — no boundary, a cut body, a malformed header — is the caller's 400, not our 500.
 */
export async function readOneFile(
  request: FastifyRequest,
  options: { maxBytes: number; maxFields: number; messages: UploadMessages },
): Promise<UploadedFile> {
  const { messages } = options;
  if (!request.isMultipart()) throw badRequest(messages.required);
  let file: Omit<UploadedFile, 'fields'> | undefined;
  const fields: Record<string, string> = {};
  try {
    const parts = request.parts({
      limits: { fileSize: options.maxBytes, files: 1, fields: options.maxFields },
    });
    for await (const part of parts) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      file = { fieldName: part.fieldname, fileName: part.filename, data: await part.toBuffer() };
    }
  } catch (error) {
    throw uploadProblem(error, messages);
  }
  if (!file) throw badRequest(messages.required);
  return { ...file, fields };
}

function uploadProblem(error: unknown, messages: UploadMessages): unknown {
  if (error instanceof AppError) return error;
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new AppError(413, 'Content Too Large', messages.tooLarge);
  if (code === 'FST_FILES_LIMIT') return badRequest(messages.oneFileAtATime);
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_PROTO_VIOLATION')
    return badRequest(messages.malformed);
  // busboy's own words for a body it cannot read: 'Multipart: Boundary not found',
  // 'Malformed part header', 'Unexpected end of form', ...
  if (typeof message === 'string' && /^(Multipart|Malformed|Unexpected end)/.test(message))
    return badRequest(messages.malformed);
  return error;
}
