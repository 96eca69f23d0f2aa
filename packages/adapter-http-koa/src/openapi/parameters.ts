import { eventsQueryBounds } from '@support/application';
import { limits, pageBounds, priorities, sortFields, ticketStates } from '@support/domain';
import { maxListValues } from '../decode/queue-params.js';
import { embeddable, ticketFields } from '../representations/fields.js';
import { ticketNames } from '../resources/tickets.js';
import type { ApiVersions } from '../conventions/api-version.js';
import type { Json } from './json.js';

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

const commaArray = (name: string, values: readonly string[], description: string, example: string): Json => ({
  name,
  in: 'query',
  required: false,
  description: `${description} Each value at most once; an empty list, an empty item or a value given twice is 400 naming it.`,
  style: 'form',
  explode: false,
  // The server's one rule for list parameters (decode/query-params.ts commaList): at least one
  // item, none empty, none twice; anything else is 400 naming it.
  schema: { type: 'array', items: { type: 'string', enum: [...values] }, minItems: 1, uniqueItems: true },
  example: example.split(','),
});

/** A queue filter (contract §5): a comma list, with named examples that run as they are. */
const queueList = (
  name: string,
  items: Json,
  description: string,
  examples: Record<string, readonly [string, readonly unknown[]]>,
): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  style: 'form',
  explode: false,
  schema: { type: 'array', items, minItems: 1, maxItems: maxListValues, uniqueItems: true },
  examples: Object.fromEntries(
    Object.entries(examples).map(([key, [summary, value]]) => [key, { summary, value: [...value] }]),
  ),
});

const idItem: Json = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

/** The sort fields and the relations by the API's names. */
const wireSortFields = sortFields.map(ticketNames.toWire);
const sortField = `(${wireSortFields.join('|')})`;
/** A comma list of [-+]field with no field twice (in either direction): the lookahead refuses a repeat. */
const sortPattern = `^(?!(?:.*,)?[-+]?${sortField},(?:.*,)?[-+]?\\1(?:,|$))[-+]?${sortField}(,[-+]?${sortField})*$`;
const embedValues = Object.entries(embeddable).flatMap(([domain, fields]) => {
  const relation = ticketNames.toWire(domain);
  return [relation, ...fields.map((f) => `${relation}.${f}`)];
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
  State: commaArray(
    'state',
    ticketStates,
    'Only tickets in these states (one value or a comma list; repeating the parameter works too). Absent: every state.',
    'open,pending',
  ),
  AssignedUserId: queueList(
    'assigned_user_id',
    { oneOf: [idItem, { type: 'string', enum: ['me', 'none'] }] },
    'Queue filter: tickets assigned to any of these users; me is the caller, none an unassigned ticket (assigned_user_id=me,none: mine and the unassigned ones). An id that matches nothing is an empty list.',
    {
      mine: ['My tickets', ['me']],
      unassigned: ['Tickets nobody is assigned to', ['none']],
      several: ['Assigned to user 7 or to nobody', [7, 'none']],
    },
  ),
  GroupIdFilter: queueList(
    'group_id',
    { oneOf: [idItem, { type: 'string', enum: ['none'] }] },
    'Queue filter: tickets of any of these groups; none a ticket without a group.',
    { one: ["Group 3's queue", [3]], ungrouped: ['Tickets without a group', ['none']] },
  ),
  CustomerIdFilter: queueList(
    'customer_id',
    idItem,
    "Queue filter: tickets of any of these customers. A customer's own list stays their own: naming another customer answers an empty list.",
    { one: ["One customer's tickets", [12]], two: ["Two customers' tickets", [12, 15]] },
  ),
  PriorityFilter: queueList(
    'priority',
    { type: 'string', enum: [...priorities] },
    'Queue filter: tickets of any of these priorities.',
    {
      urgent: ['Urgent tickets', ['urgent']],
      pressing: ['High or urgent', ['high', 'urgent']],
    },
  ),
  Tags: queueList(
    'tags',
    { type: 'string', minLength: limits.tag.min, maxLength: limits.tag.max },
    'Queue filter: tickets carrying every one of these tags (tags=vip,billing: both), compared exactly.',
    { vip: ['Tagged vip', ['vip']], both: ['Tagged vip and billing', ['vip', 'billing']] },
  ),
  UpdatedSince: {
    name: 'updated_since',
    in: 'query',
    required: false,
    description:
      'Queue filter: tickets whose updated_at is at or after this RFC 3339 date-time (Z or an offset; encode + as %2B, though a + read as a space is taken back). Combine with sort=updated_at to sync what changed since a last look; the change feed (GET /v1/events) is the gap-free way.',
    schema: { type: 'string', format: 'date-time' },
    examples: {
      since: { summary: 'Changed since 25 November 2026, 08:00 UTC', value: '2026-11-25T08:00:00Z' },
      offset: { summary: 'With an offset', value: '2026-11-25T09:00:00+01:00' },
    },
  },
  Sort: {
    name: 'sort',
    in: 'query',
    required: false,
    description:
      `Comma list of sort rules over ${wireSortFields.join(', ')}; a leading - sorts descending. priority sorts by rank (low < normal < high < urgent), state by life cycle (open, pending, closed), a null closed_at first ascending. ` +
      'id is always the final tie-breaker, in the direction of the last rule. Each field at most once (subject,-subject is 400). Default -created_at (-closed_at for recently_closed).',
    schema: { type: 'string', pattern: sortPattern, default: '-created_at' },
    example: '-priority,created_at',
  },
  Q: {
    name: 'q',
    in: 'query',
    required: false,
    description:
      'Search terms separated by spaces: a ticket matches when every term equals a word of its subject, summary or customer name, compared without regard to case and accents (a word is a run of letters and digits). ' +
      'The value recently_closed is the saved search of GET /v1/tickets/recently_closed.',
    schema: { type: 'string' },
    example: 'printer fire',
  },
  Fields: commaArray(
    'fields',
    ticketFields,
    'Only these top-level fields of each ticket (customer_name included).',
    'id,subject,customer_name',
  ),
  Embed: commaArray(
    'embed',
    embedValues,
    'Expand related resources: customer, assigned_user, group whole, or <relation>.<field> for the link plus that field (customer.name). A customer sees other users by id, url and name only.',
    'customer.name,assigned_user',
  ),
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
      'An HTTP date (RFC 1123, RFC 850 or asctime form): when nothing shown changed since, the answer is 304. Ignored when If-None-Match is sent.',
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
