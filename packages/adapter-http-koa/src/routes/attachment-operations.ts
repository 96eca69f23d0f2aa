import { attachmentLimits } from '@support/domain';
import { operationNeeds as n, repeatAccess as r } from '@support/application';
import { uploadSliceFloorBytesPerSecond, uploadSliceMs } from '../conventions/upload-pacing.js';
import { examples } from '../openapi/examples.js';
import { ref } from '../openapi/json.js';
import { curlOn, listOf, roles, ticketErrors, type Declaration } from '../openapi/operation.js';

// The operations of routes/attachments.ts, declared there as each route is registered: uploads,
// a ticket's attachments, one attachment, its bytes, its deletion (contract §9).

const visibility =
  "Visible exactly when its message is: an internal note's attachment does not exist for a customer (404); a deleted message's or ticket's is gone (410). An upload not yet attached exists for its uploader only.";

export const attachmentDeclarations = (origin: string) => {
  const curl = curlOn(origin);
  const ex = examples(origin);
  const attachment = ex.attachment();
  return {
    createUpload: {
      id: 'createUpload',
      tag: 'Attachments',
      summary: 'Upload a file',
      description: `The file's bytes as the raw body (Content-Type: the file's type; name in ?filename= or Content-Disposition, filename* included), or multipart/form-data with one part named file (a browser's FormData). Streamed, never held whole: at most UPLOAD_MAX_BYTES (default 25 MiB; 413 from Content-Length before a byte is read, and as soon as the bytes pass it, nothing kept). Read UPLOAD_CONCURRENCY at once (the others wait their turn, not counted in their time; while others wait, an upload that has received under ${String(uploadSliceFloorBytesPerSecond / 1024 / 1024)} MiB/s for ${String(uploadSliceMs / 1000)} s gives its turn to the next and waits again at the back): one that waited REQUEST_TIMEOUT_S in all is 503 (50305) with Retry-After; a body may take REQUEST_TIMEOUT_S plus one second for every UPLOAD_MIN_BYTES_PER_S bytes it sends, else 408. With SCAN_CLAMD every upload is scanned first: infected 422 (42251), scanner down 503 (50303), nothing kept. content_type comes from the leading bytes, else from a declared type that cannot run in a browser, else application/octet-stream. Attach it within UPLOAD_TTL_S (default a day) with attachment_ids on a new message, else it is deleted; a user holds at most ${String(attachmentLimits.unattachedPerUser)} unattached uploads (429, 42902).${roles('any authenticated user.')}`,
      access: 'token',
      needs: n.attachments.upload,
      keyed: { access: r.createUpload },
      params: ['Filename', 'UploadDisposition'],
      body: { schema: 'UploadForm', example: {}, binary: true },
      success: {
        status: 201,
        shape: 'created',
        description: 'Created: the upload, with its URL in Location.',
        schema: ref('Attachment'),
        example: ex.attachment({ message: null, ticket: null, expires_at: '2026-01-07T09:14:03.512Z' }),
      },
      errors: ['PayloadTooLarge', 'UnsupportedMediaType', 'ValidationFailed'],
      curl: curl(
        'POST',
        '/v1/uploads?filename=error-dialog.png',
        undefined,
        "-H 'Content-Type: image/png' --data-binary @error-dialog.png",
      ),
    },
    listTicketAttachments: {
      id: 'listTicketAttachments',
      tag: 'Attachments',
      summary: "List a ticket's attachments",
      description: `The attachments of the ticket's messages the caller may see, by message (oldest first), then in each message's order; paged like messages.${roles('customer: own tickets, never internal notes; agent, admin: all.')}`,
      access: 'token',
      needs: n.attachments.list,
      params: ['TicketId', 'Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of attachments.',
        schema: listOf('Attachment'),
        example: [attachment],
      },
      errors: ticketErrors,
      curl: curl('GET', '/v1/tickets/7/attachments'),
    },
    getAttachment: {
      id: 'getAttachment',
      tag: 'Attachments',
      summary: 'Read an attachment',
      description: `Its metadata, with links to its message, ticket and uploader. ${visibility}${roles('as its message.')}`,
      access: 'token',
      needs: n.attachments.get,
      params: ['AttachmentId'],
      success: {
        status: 200,
        shape: 'single',
        description: 'The attachment.',
        schema: ref('Attachment'),
        example: attachment,
      },
      errors: ticketErrors,
      curl: curl('GET', '/v1/attachments/41'),
    },
    deleteAttachment: {
      id: 'deleteAttachment',
      tag: 'Attachments',
      summary: 'Delete an attachment',
      description: `Redaction: afterwards it answers 410, its message lists it no more (one message.updated event), and its bytes are erased once no other upload or attachment has the same content. An upload not yet attached is removed by its uploader the same way.${roles('agent, admin (customers: 403).')}`,
      access: 'token',
      needs: n.attachments.delete,
      params: ['AttachmentId'],
      success: { status: 204, shape: 'deleted', description: 'Deleted.' },
      errors: [...ticketErrors, 'Conflict'],
      curl: curl('DELETE', '/v1/attachments/41'),
    },
    getAttachmentContent: {
      id: 'getAttachmentContent',
      tag: 'Attachments',
      summary: "Download an attachment's bytes",
      description: `The bytes, streamed (HEAD: the headers only), with Content-Type its content_type, ETag "<sha256>" (If-None-Match: 304), one Range (206; past the end: 416), X-Content-Type-Options: nosniff, Content-Security-Policy: sandbox, Cache-Control: private, max-age=300, and Content-Disposition attachment (inline for PNG, JPEG, GIF and WebP). The token may be sent any of the three ways, ?access_token= too (an <img src>). ${visibility}${roles('as its message.')}`,
      access: 'token',
      needs: n.attachments.content,
      params: ['AttachmentId', 'Range', 'IfRange'],
      success: { status: 200, shape: 'content', description: 'The bytes.' },
      errors: [...ticketErrors, 'RangeNotSatisfiable'],
      curl: curl('GET', '/v1/attachments/41/content', undefined, '-o error-dialog.png'),
    },
  } satisfies Record<string, Declaration>;
};
