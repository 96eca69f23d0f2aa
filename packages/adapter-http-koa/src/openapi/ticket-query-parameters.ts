import { limits, priorities, sortFields, ticketStates } from '@support/domain';
import { maxListValues } from '../decode/queue-params.js';
import { embeddable, ticketFields } from '../representations/fields.js';
import { ticketNames } from '../resources/tickets.js';
import type { Json } from './json.js';

// The ticket list's query parameters (contract §5: queue filters, sort, q, fields, embed),
// apart from the document's other parameters (parameters.ts) as routes/tickets.ts is apart
// from the other routes.

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

/** The parameters of GET /v1/tickets and its queue filters. */
export const ticketQueryParameters: Record<string, Json> = {
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
    'Expand related resources: customer, assigned_user, group whole, or <relation>.<field> for the link plus that field (customer.name). A customer sees other users, and groups, by id, url and name only.',
    'customer.name,assigned_user',
  ),
};
