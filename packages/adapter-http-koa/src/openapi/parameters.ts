import { eventsQueryBounds } from '@support/application';
import { pageBounds } from '@support/domain';
import type { ApiVersions } from '../conventions/api-version.js';
import type { Json } from './json.js';
import { ticketQueryParameters } from './ticket-query-parameters.js';

// The parameters of the document (path ids, list queries, presentation, caching headers),
// each described once and referred to by the operations that take it. Enums and bounds come
// from the domain's query rules and the representations' field lists, so the document cannot
// drift from them.

const flag = (name: string, fallback: boolean, description: string): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'boolean', default: fallback },
});

const pathId = (name: string, what: string): Json => ({
  name,
  in: 'path',
  required: true,
  description: `The id of the ${what}: a positive integer in canonical decimal form (anything else, such as 007 or abc, is 404).`,
  schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  example: 1,
});

export const componentParameters = (versions: ApiVersions): Record<string, Json> => ({
  TicketId: pathId('ticket_id', 'ticket'),
  AttachmentId: pathId('attachment_id', 'upload or attachment'),
  Filename: {
    name: 'filename',
    in: 'query',
    required: false,
    description:
      "A raw upload's file name (else Content-Disposition's filename* or filename; multipart: the part's filename). Normalised: NFC; path separators, control characters and leading dots removed; 1-255 characters, else 422.",
    schema: { type: 'string' },
    example: 'error-dialog.png',
  },
  UploadDisposition: {
    name: 'Content-Disposition',
    in: 'header',
    required: false,
    description:
      'RFC 6266 for a raw upload: attachment; filename="name" or filename*=UTF-8\'\'percent-encoded-name (which wins). ?filename= wins over both.',
    schema: { type: 'string' },
    example: "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
  },
  Range: {
    name: 'Range',
    in: 'header',
    required: false,
    description:
      'One byte range (bytes=first-last, bytes=first-, bytes=-suffix): 206 with Content-Range. Several ranges or another unit: the whole (200). A range starting past the end: 416.',
    schema: { type: 'string' },
    example: 'bytes=0-1023',
  },
  IfRange: {
    name: 'If-Range',
    in: 'header',
    required: false,
    description: 'An ETag: the Range is served only while it still matches, else the whole (200).',
    schema: { type: 'string' },
  },
  MessageId: { ...pathId('message_id', 'message (its number inside the ticket: 1, 2, 3...)'), example: 1 },
  UserId: pathId('user_id', 'user'),
  TokenId: pathId('token_id', 'personal access token'),
  GroupId: pathId('group_id', 'group'),
  WebhookId: pathId('webhook_id', 'webhook'),
  FieldId: pathId('field_id', 'ticket field'),
  DocsFile: {
    name: 'file',
    in: 'path',
    required: true,
    description: 'A file the documentation page names, such as swagger-ui.css.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' },
    example: 'swagger-ui.css',
  },
  ...ticketQueryParameters,
  Page: {
    name: 'page',
    in: 'query',
    required: false,
    description: `The page to answer, from 1. A page past the last answers an empty list (with the Link header). A page must start within the first ${pageBounds.maxOffset} items of a list ((page - 1) × per_page < ${pageBounds.maxOffset}, else 400 40007): the maximum is the deepest page with per_page=1.`,
    schema: { type: 'integer', minimum: 1, maximum: pageBounds.maxOffset, default: 1 },
    example: 2,
  },
  PerPage: {
    name: 'per_page',
    in: 'query',
    required: false,
    description: `Items per page, 1-${pageBounds.maxPerPage}.`,
    schema: { type: 'integer', minimum: 1, maximum: pageBounds.maxPerPage, default: pageBounds.defaultPerPage },
    example: 50,
  },
  After: {
    name: 'after',
    in: 'query',
    required: false,
    description:
      'The cursor: answer the events with a seq above this one, oldest first (0: from the oldest kept). Use the last seq you have seen, or follow Link rel="next". Older than what is kept: 410 (41002) naming oldest_seq.',
    schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 },
    example: 1041,
  },
  EventsPerPage: {
    name: 'per_page',
    in: 'query',
    required: false,
    description: `At most this many events, ${eventsQueryBounds.perPage.min}-${eventsQueryBounds.perPage.max}.`,
    schema: {
      type: 'integer',
      minimum: eventsQueryBounds.perPage.min,
      maximum: eventsQueryBounds.perPage.max,
      default: eventsQueryBounds.perPage.fallback,
    },
    example: 100,
  },
  ActorId: {
    name: 'actor_id',
    in: 'query',
    required: false,
    description:
      'Only the changes this user made (actor.id), under the same cursor, paging and wait rules: after and Link still count the global seq.',
    schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    example: 12,
  },
  Wait: {
    name: 'wait',
    in: 'query',
    required: false,
    description: `Long poll: when nothing is newer than after, hold the request up to this many seconds (${eventsQueryBounds.waitSeconds.min}-${eventsQueryBounds.waitSeconds.max}) and answer as soon as an event arrives; [] when none did (or when the server is stopping).`,
    schema: {
      type: 'integer',
      minimum: eventsQueryBounds.waitSeconds.min,
      maximum: eventsQueryBounds.waitSeconds.max,
      default: 0,
    },
    // An example a tool can run quickly: an example-driven client sends it as it is.
    example: 1,
  },
  Pretty: flag('pretty', true, 'JSON is indented with 2 spaces unless pretty=false.'),
  ApiVersion: {
    name: 'X-Api-Version',
    in: 'header',
    required: false,
    description: `The minor version to serve (${versions.supported.join(', ')}). Absent: the newest, ${versions.current}. Unknown: 400 (40003).`,
    schema: { type: 'string', enum: [...versions.supported] },
  },
  RequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description:
      'Your own id for this request, echoed in the answer and the logs when it is 1-128 characters of [A-Za-z0-9._-]; any other value is never refused: the answer then carries a new id.',
    schema: { type: 'string' },
    example: 'req-7f3a.2',
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'An ETag you have: when it still matches, the answer is 304 without a body.',
    schema: { type: 'string' },
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    description:
      'An HTTP date (RFC 1123, RFC 850 or asctime form): when nothing shown changed since, the answer is 304. Ignored when If-None-Match is sent. HTTP dates count whole seconds, so a change made within the second of the Last-Modified you hold is not seen (304): revalidate with If-None-Match, which is exact.',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retried POST safe: a repeat with the same key, method, path and body gets the first answer again (Idempotent-Replayed: true) instead of running twice. 1-255 printable ASCII characters, scoped to the caller, kept 24 hours; a new request needs a new key (for example a UUID).',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]{1,255}$' },
    example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Lost-update protection: the ETag of the representation you based the change on. When the resource has changed since, the answer is 412 and nothing is written.',
    schema: { type: 'string' },
  },
});

export const param = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });
