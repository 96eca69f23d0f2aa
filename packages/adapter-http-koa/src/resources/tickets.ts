import type { Related, TicketView } from '@support/application';
import {
  customFieldsObject,
  limits,
  nullable,
  shownCustomValues,
  ticketStates,
  ticketValues,
  type TicketRelation,
} from '@support/domain';
import { ref } from '../openapi/json.js';
import { id, timestamp as timestampSchema, url } from '../openapi/schemas/fields.js';
import { link, nullableTimestamp, pick, timestamp, type Link } from '../representations/common.js';
import { groupRepresentation } from '../representations/group.js';
import type { Urls } from '../representations/urls.js';
import { userRepresentation } from '../representations/user.js';
import { answered, namesOf, shownNames, writable, writeOnly, type FieldTable } from './field-table.js';

// A ticket's fields, described once (resources/field-table.ts): what each answer shows, in
// order, and what each write takes. Related users and groups exist on their own: a ticket
// shows them as link objects {id, url}, which `embed` expands; they are written as ids.

/** 'all' expands the whole related resource; a list of sub-fields adds just those to the link object. */
export type EmbedSelection = 'all' | readonly string[];
export type EmbedSpec = Readonly<Partial<Record<TicketRelation, EmbedSelection>>>;

/** What a ticket's representation is made from. */
export interface TicketSource {
  readonly view: TicketView;
  readonly urls: Urls;
  readonly embed: EmbedSpec;
}

/**
 * A related resource as `embed` asked for it. A customer sees other users (and groups)
 * only by id and name ("limited"): asking for more of them shows just that.
 */
const expand = <T>(
  base: Link,
  related: Related<T, number> | null | undefined,
  selection: EmbedSelection | undefined,
  represent: (value: T) => Record<string, unknown>,
): Record<string, unknown> => {
  if (selection === undefined || related === undefined || related === null) return { ...base };
  const full = related.kind === 'full' ? represent(related.value) : { ...base, name: related.name };
  if (selection === 'all') return full;
  return { ...base, ...pick(full, selection) };
};

const { subject, summary, state, priority, tags, user, group } = ticketValues;
const ticketOf = (s: TicketSource): TicketView['ticket'] => s.view.ticket;

export const ticketTable = {
  id: answered((s: TicketSource) => ticketOf(s).id, id('Server-assigned, never reused.')),
  url: answered((s: TicketSource) => s.urls.ticket(ticketOf(s).id), url('This ticket.')),
  subject: writable((s: TicketSource) => ticketOf(s).subject, {
    domain: 'subject',
    codec: subject,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: {
      description: `The ticket's subject: ${limits.subject.min}-${limits.subject.max} characters, not blank.`,
    },
  }),
  summary: writable((s: TicketSource) => ticketOf(s).summary, {
    domain: 'summary',
    codec: summary,
    create: 'optional',
    replace: 'optional',
    resettable: true,
    said: { description: `The ticket's summary: at most ${limits.summary.max} characters. Default "".` },
  }),
  state: writable((s: TicketSource) => ticketOf(s).state, {
    domain: 'state',
    codec: state,
    create: 'refused',
    replace: 'optional',
    resettable: false,
    said: {
      description:
        'open <-> pending, open/pending -> closed, closed -> open; closed -> pending is refused (422, invalid_transition). New tickets start open.',
    },
  }),
  priority: writable((s: TicketSource) => ticketOf(s).priority, {
    domain: 'priority',
    codec: priority,
    create: 'optional',
    replace: 'optional',
    resettable: true,
    said: { description: 'Sorted by rank: low < normal < high < urgent. Default normal.' },
  }),
  customer: answered(
    (s: TicketSource) => {
      const t = ticketOf(s);
      const u = userRepresentation.bind(null, s.urls);
      return expand(link(t.customerId, s.urls.user(t.customerId)), s.view.related.customer, s.embed.customer, u);
    },
    {
      ...ref('UserLink'),
      readOnly: true,
      description:
        'The customer (a link; expanded with embed=customer or embed=customer.<field>). Written as customer_id.',
    },
  ),
  customer_name: answered((s: TicketSource) => ticketOf(s).customerName, {
    type: 'string',
    readOnly: true,
    description: "The customer's name, flat (server-derived); usable in fields and searched by q.",
  }),
  assigned_user: answered(
    (s: TicketSource) => {
      const t = ticketOf(s);
      const u = userRepresentation.bind(null, s.urls);
      return t.assignedUserId === null
        ? null
        : expand(
            link(t.assignedUserId, s.urls.user(t.assignedUserId)),
            s.view.related.assignedUser,
            s.embed.assignedUser,
            u,
          );
    },
    {
      oneOf: [ref('UserLink'), { type: 'null' }],
      readOnly: true,
      description: 'The agent or admin working on it, or null. Written as assigned_user_id.',
    },
  ),
  group: answered(
    (s: TicketSource) => {
      const t = ticketOf(s);
      const g = groupRepresentation.bind(null, s.urls);
      return t.groupId === null
        ? null
        : expand(link(t.groupId, s.urls.group(t.groupId)), s.view.related.group, s.embed.group, g);
    },
    {
      oneOf: [ref('GroupLink'), { type: 'null' }],
      readOnly: true,
      description: 'The group it belongs to, or null. Written as group_id.',
    },
  ),
  tags: writable((s: TicketSource) => ticketOf(s).tags, {
    domain: 'tags',
    codec: tags,
    create: 'optional',
    replace: 'optional',
    resettable: true,
    said: {
      description: `At most ${limits.tags} tags (a longer list is refused by its length); a repeated tag is kept once. Default [].`,
      items: `A tag of ${limits.tag.min}-${limits.tag.max} characters.`,
    },
  }),
  created_at: answered(
    (s: TicketSource) => timestamp(ticketOf(s).createdAt),
    timestampSchema('When the ticket was created.'),
  ),
  updated_at: answered(
    (s: TicketSource) => timestamp(ticketOf(s).updatedAt),
    timestampSchema('When the ticket (or one of its messages) last changed.'),
  ),
  closed_at: answered((s: TicketSource) => nullableTimestamp(ticketOf(s).closedAt), {
    oneOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
    readOnly: true,
    description: 'Set by the server when the state becomes closed, cleared on reopening.',
  }),
  messages_url: answered((s: TicketSource) => s.urls.messages(ticketOf(s).id), url("The ticket's messages.")),
  allowed_transitions: answered((s: TicketSource) => s.view.allowedTransitions, {
    type: 'array',
    items: { type: 'string', enum: [...ticketStates] },
    uniqueItems: true,
    readOnly: true,
    description:
      "The states the caller may move the ticket to now, computed from its state and the caller's role: agents and admins follow the state machine, a customer only ever sees open and closed; empty for a deleted ticket. Part of the representation for fields, ETag and caching.",
  }),
  // Contract §10: keyed by key, one member per field the caller sees (null when unset); the
  // use case decodes each value against its definition. The served document describes both
  // schemas with the fields defined now (openapi/custom-fields.ts).
  custom_fields: {
    ...writable((s: TicketSource) => shownCustomValues(s.view.fields, ticketOf(s).customFields), {
      domain: 'customFields',
      codec: customFieldsObject,
      create: 'optional',
      replace: 'optional',
      resettable: false,
      said: {
        description:
          'Custom field values by key (GET /v1/ticket_fields). POST and PUT take the whole object (an omitted key is unset), PATCH only the keys given; null unsets. A bad key is 422 naming custom_fields.<key>.',
      },
    }),
    schema: ref('CustomFields'),
  },
  // Written as ids; answered as links (customer, assigned_user, group).
  customer_id: writeOnly({
    domain: 'customerId',
    codec: user,
    create: 'optional',
    replace: 'optional',
    resettable: false,
    said: {
      description:
        'The customer: any user (an agent or admin may be the customer of a ticket they file for themself). Agents and admins may name any user; a customer may give only their own id (another: 403).',
    },
    saidOnCreate: {
      description:
        "The ticket's customer: any user. Required when an agent or admin creates a ticket (missing: 422, 42201). A customer's ticket is always their own: a customer may leave it out or give their own id (another: 403).",
    },
  }),
  assigned_user_id: writeOnly({
    domain: 'assignedUserId',
    codec: nullable(user),
    create: 'optional',
    replace: 'optional',
    resettable: false,
    said: { description: 'An agent or admin.' },
  }),
  group_id: writeOnly({
    domain: 'groupId',
    codec: nullable(group),
    create: 'optional',
    replace: 'optional',
    resettable: false,
    said: {},
  }),
} satisfies FieldTable<TicketSource>;

/** The top-level fields of a ticket, in order: what `fields` may name. */
export const ticketFields = shownNames<TicketSource, typeof ticketTable>(ticketTable);
export type TicketField = (typeof ticketFields)[number];

/** The API's names of a ticket's fields, sort fields and relations, against the domain's. */
export const ticketNames = namesOf(ticketTable, {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  closedAt: 'closed_at',
  assignedUser: 'assigned_user',
});
