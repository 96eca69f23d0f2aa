import { priorities, ticketStates } from '@support/domain';
import {
  limits,
  type BodyProperties,
  type TicketCreateInput,
  type TicketPatchInput,
  type TicketReplaceInput,
} from '../body-codecs.js';
import { ref, type Json } from '../json.js';
import type { TicketWireTable } from '../../wire-names.js';
import { id, idRef, nullable, text, timestamp, url } from './fields.js';

// A ticket as the API answers it (Ticket, TicketSelection) and as it takes it (TicketCreate,
// TicketReplace, TicketPatch).

const subject = text(
  limits.subject.min,
  limits.subject.max,
  `The ticket's subject: ${limits.subject.min}-${limits.subject.max} characters, not blank.`,
);
const summary = text(
  limits.summary.min,
  limits.summary.max,
  `The ticket's summary: at most ${limits.summary.max} characters. Default "".`,
);
const state = {
  type: 'string',
  enum: [...ticketStates],
  description:
    'open <-> pending, open/pending -> closed, closed -> open; closed -> pending is refused (422, invalid_transition). New tickets start open.',
};
const priority = {
  type: 'string',
  enum: [...priorities],
  description: 'Sorted by rank: low < normal < high < urgent. Default normal.',
};
const tags = {
  type: 'array',
  items: text(limits.tag.min, limits.tag.max, `A tag of ${limits.tag.min}-${limits.tag.max} characters.`),
  maxItems: limits.tags,
  uniqueItems: true,
  description: `At most ${limits.tags} distinct tags (a repeated tag in a request is kept once). Default [].`,
};

const ticketProperties: Json = {
  id: id('Server-assigned, never reused.'),
  url: url('This ticket.'),
  subject,
  summary,
  state,
  priority,
  customer: {
    ...ref('UserLink'),
    readOnly: true,
    description:
      'The customer (a link; expanded with embed=customer or embed=customer.<field>). Written as customer_id.',
  },
  customer_name: {
    type: 'string',
    readOnly: true,
    description: "The customer's name, flat (server-derived); usable in fields and searched by q.",
  },
  assigned_user: {
    oneOf: [ref('UserLink'), { type: 'null' }],
    readOnly: true,
    description: 'The agent or admin working on it, or null. Written as assigned_user_id.',
  },
  group: {
    oneOf: [ref('GroupLink'), { type: 'null' }],
    readOnly: true,
    description: 'The group it belongs to, or null. Written as group_id.',
  },
  tags,
  created_at: timestamp('When the ticket was created.'),
  updated_at: timestamp('When the ticket (or one of its messages) last changed.'),
  closed_at: {
    oneOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
    readOnly: true,
    description: 'Set by the server when the state becomes closed, cleared on reopening.',
  },
  messages_url: url("The ticket's messages."),
  allowed_transitions: {
    type: 'array',
    items: { type: 'string', enum: [...ticketStates] },
    uniqueItems: true,
    readOnly: true,
    description:
      "The states the caller may move the ticket to now, computed from its state and the caller's role: agents and admins follow the state machine, a customer only ever sees open and closed; empty for a deleted ticket. Part of the representation for fields, ETag and caching.",
  },
};

// Written as ids; answered as links (customer, assigned_user, group).
const customerId = {
  ...idRef('user with the role customer'),
  description:
    'The customer. Agents and admins may name any customer; a customer may give only their own id (another: 403).',
};
const createdFor = {
  ...customerId,
  description:
    "The ticket's customer. Required when an agent or admin creates a ticket (missing: 422, 42201). A customer's ticket is always their own: a customer may leave it out or give their own id (another: 403).",
};
const assignedUserId = nullable({ ...idRef('user'), description: 'An agent or admin.' });
const groupId = nullable(idRef('group'));

const ticketCreate: BodyProperties<TicketCreateInput, TicketWireTable> = {
  subject,
  summary,
  priority,
  customer_id: createdFor,
  assigned_user_id: assignedUserId,
  group_id: groupId,
  tags,
};
const ticketReplace: BodyProperties<TicketReplaceInput, TicketWireTable> = {
  subject,
  summary,
  state,
  priority,
  customer_id: customerId,
  assigned_user_id: assignedUserId,
  group_id: groupId,
  tags,
};
const ticketPatch: BodyProperties<TicketPatchInput, TicketWireTable> = {
  subject,
  summary: nullable(summary),
  state,
  priority: nullable(priority),
  customer_id: customerId,
  assigned_user_id: assignedUserId,
  group_id: groupId,
  tags: nullable(tags),
};

export const ticketSchemas = (): Record<string, Json> => ({
  Ticket: {
    type: 'object',
    description: 'A support ticket, as POST, PUT, PATCH and DELETE answer it (every field).',
    additionalProperties: false,
    required: Object.keys(ticketProperties),
    properties: ticketProperties,
  },
  TicketSelection: {
    type: 'object',
    description:
      'A ticket as a read answers it: every field of Ticket, or with fields=<list> only the fields named there (in the order of Ticket). embed expands customer, assigned_user and group.',
    additionalProperties: false,
    properties: ticketProperties,
  },
  TicketCreate: {
    type: 'object',
    description:
      'POST /v1/tickets. Unknown and server-set fields are refused (422, one error per field); state is not accepted: new tickets start open.',
    additionalProperties: false,
    required: ['subject'],
    properties: ticketCreate,
  },
  TicketReplace: {
    type: 'object',
    description: 'PUT: every writable field; omitted optional ones return to their defaults (the customer is kept).',
    additionalProperties: false,
    required: ['subject'],
    properties: ticketReplace,
  },
  TicketPatch: {
    type: 'object',
    description:
      'PATCH (JSON merge patch, RFC 7396): only the fields given change; null resets an optional field to its default. A customer may change subject, summary and state only.',
    additionalProperties: false,
    properties: ticketPatch,
  },
});
