import { z } from 'zod';

/**
 * Transaction documents (spec 2 §2 Documents). spec 2 §5 leaves their limits open: ours are in
 * docs/api.md — at most 10 MB (10,000,000 bytes), one file in the field `file`, of a type
 * recognised from its bytes (or plain UTF-8 text).
 */
export const documentLimits = {
  maxBytes: 10_000_000,
  fileName: 255,
} as const;

export const documentMessages = {
  fileRequired: 'Send one file in the multipart field "file".',
  fileEmpty: 'The file is empty.',
  fileTooLarge: 'The file is larger than 10 MB.',
  fileTypeNotAllowed:
    'This type of file cannot be attached. Attach a PDF, an image (PNG, JPEG, GIF, WebP, TIFF), an Office or OpenDocument file, or plain text.',
  documentNotFound: 'The document was not found.',
  oneFileAtATime: 'Attach one file at a time.',
  malformed: 'The upload could not be read: send the file as multipart/form-data.',
} as const;

export const documentParams = z.object({ id: z.uuid(), documentId: z.uuid() });
