import { attachmentLimits } from '@support/domain';
import { ref, type Json } from '../json.js';
import { id, nullable, timestamp, url } from './fields.js';

// Files on messages (contract §9): an attachment as a message lists it (MessageAttachment), an
// upload or attachment on its own (Attachment), and the bodies an upload is sent as.

const sha256 = {
  type: 'string',
  pattern: '^[0-9a-f]{64}$',
  readOnly: true,
  description: "Lower-case hex SHA-256 of the bytes: the content's strong ETag.",
};

const onMessage: Record<string, Json> = {
  id: id('The id of the upload, the same once attached.'),
  url: url('This attachment (its metadata).'),
  content_url: url('Its bytes (GET or HEAD; Range requests; the token may also be sent as ?access_token=).'),
  filename: {
    type: 'string',
    minLength: attachmentLimits.filename.min,
    maxLength: attachmentLimits.filename.max,
    readOnly: true,
    description:
      'The name as uploaded, normalised: NFC; path separators, control characters, bidirectional overrides and leading dots removed; 1-255 characters.',
  },
  content_type: {
    type: 'string',
    readOnly: true,
    description:
      'What the leading bytes show (magic numbers); else the declared type when the server cannot misread it as active content (text/plain, text/csv, application/json...); else application/octet-stream. Never text/html, image/svg+xml or a script type from a declaration.',
  },
  size: { type: 'integer', minimum: 0, readOnly: true, description: 'Bytes.' },
  sha256,
};

export const attachmentSchemas = (): Record<string, Json> => ({
  MessageAttachment: {
    type: 'object',
    description: 'A file as its message lists it.',
    additionalProperties: false,
    required: Object.keys(onMessage),
    properties: onMessage,
  },
  Attachment: {
    type: 'object',
    description:
      'An upload (message and ticket null, expires_at set: it is deleted then unless a new message takes it), or an attachment of a message, visible exactly when its message is.',
    additionalProperties: false,
    required: [...Object.keys(onMessage), 'scan', 'uploader', 'message', 'ticket', 'created_at', 'expires_at'],
    properties: {
      ...onMessage,
      scan: {
        type: 'string',
        enum: ['clean', 'not_scanned'],
        readOnly: true,
        description: 'clean: a malware scanner (SCAN_CLAMD) passed it; not_scanned: no scanner is configured.',
      },
      uploader: { ...ref('Link'), readOnly: true, description: 'The user who uploaded it.' },
      message: { ...nullable(ref('Link')), readOnly: true, description: 'The message holding it; null for an upload.' },
      ticket: { ...nullable(ref('Link')), readOnly: true, description: "The message's ticket; null for an upload." },
      created_at: timestamp('When it was uploaded.'),
      expires_at: {
        ...nullable({ type: 'string', format: 'date-time' }),
        readOnly: true,
        description:
          'When an upload not attached by then is deleted (UPLOAD_TTL_S after the upload); null once attached.',
      },
    },
  },
  UploadForm: {
    type: 'object',
    description:
      "multipart/form-data as a browser's FormData sends it: one part named file (its filename and type are used). Other parts are read past and ignored; a part name holding a control character other than tab is a malformed part header (400, 40002), as in any HTTP header.",
    required: ['file'],
    properties: { file: { type: 'string', format: 'binary', description: 'The file.' } },
    propertyNames: { pattern: '^[^\\u0000-\\u0008\\u000a-\\u001f\\u007f]*$' },
  },
});
