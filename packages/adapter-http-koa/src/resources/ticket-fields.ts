import { customFieldLimits as cf, nullable, ticketFieldValues, type TicketFieldDefinition } from '@support/domain';
import { id, timestamp as timestampSchema, url } from '../openapi/schemas/fields.js';
import { timestamp } from '../representations/common.js';
import type { Urls } from '../representations/urls.js';
import { answered, namesOf, writable, type FieldTable } from './field-table.js';

// A custom field's definition (contract §10), its fields described once
// (resources/field-table.ts). Key, type and pattern are given at creation; a patch may name
// them only as they are (the domain refuses another value: 422). There is no PUT of a
// definition: a replacement takes what a creation takes.

/** What a definition's representation is made from. */
export interface TicketFieldSource {
  readonly field: TicketFieldDefinition;
  readonly urls: Urls;
}

const v = ticketFieldValues;
const fieldOf = (s: TicketFieldSource): TicketFieldDefinition => s.field;
/** Given at creation, optional there and in a patch, kept when a patch leaves it out. */
const settable = { create: 'optional', replace: 'optional', resettable: false } as const;

export const ticketFieldTable = {
  id: answered((s: TicketFieldSource) => fieldOf(s).id, id('Server-assigned, never reused.')),
  url: answered((s: TicketFieldSource) => s.urls.ticketField(fieldOf(s).id), url('This field.')),
  key: writable((s: TicketFieldSource) => fieldOf(s).key, {
    domain: 'key',
    codec: v.key,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: { description: 'Unique, fixed once created; queries name the field by it (cf.<key>).' },
    saidOnPatch: { description: 'Only as it is: a key is fixed (another: 422).' },
  }),
  title: writable((s: TicketFieldSource) => fieldOf(s).title, {
    domain: 'title',
    codec: v.title,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: { description: 'Shown to people.' },
  }),
  type: writable((s: TicketFieldSource) => fieldOf(s).type, {
    domain: 'type',
    codec: v.type,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: {
      description:
        'text (at most 255 characters), textarea (10000), integer (a safe integer), decimal (a number with at most 4 decimals, |value| < 10^11, kept exactly), date (YYYY-MM-DD), checkbox (boolean), dropdown (one of options), multiselect (a set of at most 50 options), regexp (a text of at most 255 characters matching pattern). Fixed once created (422).',
    },
    saidOnPatch: { description: 'Only as it is: a type is fixed (another: 422).' },
  }),
  description: writable((s: TicketFieldSource) => fieldOf(s).description, {
    domain: 'description',
    codec: v.description,
    create: 'optional',
    replace: 'optional',
    resettable: true,
    said: { description: 'A note for people. Default "".' },
  }),
  options: writable((s: TicketFieldSource) => fieldOf(s).options.map((o) => ({ value: o.value, title: o.title })), {
    domain: 'options',
    codec: v.options,
    ...settable,
    said: {
      description: `dropdown and multiselect: the values a ticket may hold (at least one, at most ${cf.options}); [] for other types. Removing an option a ticket still holds is 409.`,
      members: {
        value: 'Unique among the options; no comma, not "none" (cf.<key>=none means unset).',
        title: 'Shown to people; default: the value.',
      },
    },
  }),
  pattern: writable((s: TicketFieldSource) => fieldOf(s).pattern, {
    domain: 'pattern',
    codec: nullable(v.pattern),
    ...settable,
    said: {
      description:
        'regexp: an RE2 pattern (linear-time matching; a pattern RE2 refuses is 422), matched anywhere in the value: anchor it with ^ and $. Fixed once created.',
    },
    saidOnPatch: { description: 'Only as it is: a pattern is fixed (another: 422).' },
  }),
  required: writable((s: TicketFieldSource) => fieldOf(s).required, {
    domain: 'required',
    codec: v.required,
    ...settable,
    said: { description: 'Required when an agent or admin creates or replaces a ticket. Default false.' },
  }),
  customer_visible: writable((s: TicketFieldSource) => fieldOf(s).customerVisible, {
    domain: 'customerVisible',
    codec: v.customerVisible,
    ...settable,
    said: { description: 'Customers see the field (and its values). Default false.' },
  }),
  customer_editable: writable((s: TicketFieldSource) => fieldOf(s).customerEditable, {
    domain: 'customerEditable',
    codec: v.customerEditable,
    ...settable,
    said: { description: 'Customers may set the field (it must be customer_visible too). Default false.' },
  }),
  position: writable((s: TicketFieldSource) => fieldOf(s).position, {
    domain: 'position',
    codec: v.position,
    ...settable,
    said: { description: 'The order of the fields (then by id). Default: after the last.' },
  }),
  created_at: answered(
    (s: TicketFieldSource) => timestamp(fieldOf(s).createdAt),
    timestampSchema('When the field was defined.'),
  ),
  updated_at: answered(
    (s: TicketFieldSource) => timestamp(fieldOf(s).updatedAt),
    timestampSchema('When the definition last changed.'),
  ),
} satisfies FieldTable<TicketFieldSource>;

/** The API's names of a definition's fields, against the domain's. */
export const ticketFieldNames = namesOf(ticketFieldTable, { createdAt: 'created_at', updatedAt: 'updated_at' });
