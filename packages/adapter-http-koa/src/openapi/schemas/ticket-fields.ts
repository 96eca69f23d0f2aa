import {
  customFieldLimits as cf,
  fieldTypes,
  isRangeType,
  isSortableType,
  type TicketFieldDefinition,
} from '@support/domain';
import type { BodyProperties, TicketFieldCreateInput, TicketFieldPatchInput } from '../body-codecs.js';
import type { Json } from '../json.js';
import type { TicketFieldWireTable } from '../../wire-names.js';
import { id, nullable, text, timestamp, url } from './fields.js';

// Custom ticket fields (contract §10): a definition as the API answers it (TicketField) and
// takes it (TicketFieldCreate, TicketFieldPatch), and a ticket's `custom_fields`
// (CustomFields, CustomFieldsWrite). The served document (`withCustomFields`) describes
// custom_fields with the fields defined at the time: one property per key, typed, options as
// an enum, a regexp's pattern, so that a client generated from it sees them.

const key = {
  type: 'string',
  minLength: cf.key.min,
  maxLength: cf.key.max,
  pattern: '^[a-z][a-z0-9_]*$',
  description: 'Unique, fixed once created; queries name the field by it (cf.<key>).',
};
const type = {
  type: 'string',
  enum: [...fieldTypes],
  description:
    'text (at most 255 characters), textarea (10000), integer (a safe integer), decimal (a number with at most 4 decimals, |value| < 10^11, kept exactly), date (YYYY-MM-DD), checkbox (boolean), dropdown (one of options), multiselect (a set of at most 50 options), regexp (a text of at most 255 characters matching pattern). Fixed once created (422).',
};
const option = {
  type: 'object',
  additionalProperties: false,
  required: ['value'],
  properties: {
    value: {
      type: 'string',
      minLength: cf.optionValue.min,
      maxLength: cf.optionValue.max,
      pattern: '^(?!none$)[^,]*\\S[^,]*$',
      description: 'Unique among the options; no comma, not "none" (cf.<key>=none means unset).',
    },
    title: text(cf.optionTitle.min, cf.optionTitle.max, 'Shown to people; default: the value.'),
  },
};
const options = {
  type: 'array',
  items: option,
  maxItems: cf.options,
  description: `dropdown and multiselect: the values a ticket may hold (at least one, at most ${cf.options}); [] for other types. Removing an option a ticket still holds is 409.`,
};
const pattern = text(
  cf.pattern.min,
  cf.pattern.max,
  'regexp: an RE2 pattern (linear-time matching; a pattern RE2 refuses is 422), matched anywhere in the value: anchor it with ^ and $. Fixed once created.',
);
const flags = {
  required: {
    type: 'boolean',
    description: 'Required when an agent or admin creates or replaces a ticket. Default false.',
  },
  customer_visible: { type: 'boolean', description: 'Customers see the field (and its values). Default false.' },
  customer_editable: {
    type: 'boolean',
    description: 'Customers may set the field (it must be customer_visible too). Default false.',
  },
  position: {
    type: 'integer',
    minimum: 0,
    maximum: cf.position,
    description: 'The order of the fields (then by id). Default: after the last.',
  },
};
const description = text(cf.description.min, cf.description.max, 'A note for people. Default "".');
const title = text(cf.title.min, cf.title.max, 'Shown to people.');

const fieldCreate: BodyProperties<TicketFieldCreateInput, TicketFieldWireTable> = {
  key,
  title,
  type,
  description,
  options,
  pattern: nullable(pattern),
  ...flags,
};
const fieldPatch: BodyProperties<TicketFieldPatchInput, TicketFieldWireTable> = {
  key: { ...key, description: 'Only as it is: a key is fixed (another: 422).' },
  title,
  type: { ...type, description: 'Only as it is: a type is fixed (another: 422).' },
  description: nullable(description),
  options,
  pattern: nullable({ ...pattern, description: 'Only as it is: a pattern is fixed (another: 422).' }),
  ...flags,
};

/** Any value a custom field can hold, before fields are known. */
const anyValue: Json = {
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: { type: 'string' }, maxItems: cf.multiselect },
    { type: 'null' },
  ],
};

const customFieldsDescription =
  'Custom fields (GET /v1/ticket_fields), keyed by key: one member per field the caller may see, null when unset. Written the same way: POST and PUT take the whole object (an omitted key is unset), PATCH changes only the keys given; a bad key is 422 naming custom_fields.<key>.';

export const ticketFieldSchemas = (): Record<string, Json> => ({
  TicketField: {
    type: 'object',
    description: 'A custom ticket field (contract §10).',
    additionalProperties: false,
    required: [
      'id',
      'url',
      'key',
      'title',
      'type',
      'description',
      'options',
      'pattern',
      'required',
      'customer_visible',
      'customer_editable',
      'position',
      'created_at',
      'updated_at',
    ],
    properties: {
      id: id('Server-assigned, never reused.'),
      url: url('This field.'),
      key,
      title,
      type,
      description,
      options,
      pattern: nullable(pattern),
      ...flags,
      created_at: timestamp('When the field was defined.'),
      updated_at: timestamp('When the definition last changed.'),
    },
  },
  TicketFieldCreate: {
    type: 'object',
    description: 'POST /v1/ticket_fields (admins). At most 100 fields.',
    additionalProperties: false,
    required: ['key', 'title', 'type'],
    properties: fieldCreate,
  },
  TicketFieldPatch: {
    type: 'object',
    description:
      'PATCH (JSON merge patch): title, description, options, required, customer_visible, customer_editable and position may change; key, type and pattern may only be given as they are.',
    additionalProperties: false,
    properties: fieldPatch,
  },
  CustomFields: {
    type: 'object',
    description: customFieldsDescription,
    maxProperties: cf.definitions,
    additionalProperties: anyValue,
  },
  CustomFieldsWrite: {
    type: 'object',
    description: customFieldsDescription,
    maxProperties: cf.definitions,
    additionalProperties: anyValue,
  },
});

const nullOr = (schema: Json, t: string): Json => ({ ...schema, type: [t, 'null'] });

/** Whether a pattern reads the same as an ECMAScript one, so a JSON Schema validator may check it (else only the server does). */
const portablePattern = (p: string): boolean => {
  try {
    new RegExp(p, 'u');
    return !/\(\?[a-zA-Z]|\\[zAQEpP]|\[\[:/.test(p);
  } catch {
    return false;
  }
};

/** The schema of one field's value (null: unset). */
export const customValueSchema = (d: TicketFieldDefinition): Json => {
  const about = { title: d.title, description: `${d.type}${d.description === '' ? '' : `: ${d.description}`}` };
  const values = d.options.map((o) => o.value);
  switch (d.type) {
    case 'text':
      return nullOr({ ...about, maxLength: cf.text }, 'string');
    case 'textarea':
      return nullOr({ ...about, maxLength: cf.textarea }, 'string');
    case 'integer':
      return nullOr({ ...about, minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }, 'integer');
    case 'decimal':
      return nullOr({ ...about, exclusiveMinimum: -cf.decimalBound, exclusiveMaximum: cf.decimalBound }, 'number');
    case 'date':
      return nullOr({ ...about, format: 'date' }, 'string');
    case 'checkbox':
      return nullOr(about, 'boolean');
    case 'dropdown':
      return { ...about, type: ['string', 'null'], enum: [...values, null] };
    case 'multiselect':
      return nullOr(
        { ...about, items: { type: 'string', enum: values }, maxItems: cf.multiselect, uniqueItems: true },
        'array',
      );
    case 'regexp': {
      const p = d.pattern ?? '';
      return nullOr(
        { ...about, maxLength: cf.regexp, ...(portablePattern(p) ? { pattern: p } : {}), 'x-re2-pattern': p },
        'string',
      );
    }
  }
};

/** custom_fields with these fields: one property per key, nothing else. */
export const customFieldsSchema = (defs: readonly TicketFieldDefinition[]): Json => ({
  type: 'object',
  description: customFieldsDescription,
  additionalProperties: false,
  properties: Object.fromEntries(defs.map((d) => [d.key, customValueSchema(d)])),
});

/** The `cf.<key>` query parameters of the ticket lists for these fields. */
export const customFilterParameters = (defs: readonly TicketFieldDefinition[]): Json[] =>
  defs.flatMap((d) => {
    const filter: Json = {
      name: `cf.${d.key}`,
      in: 'query',
      required: false,
      description: `Tickets whose ${d.key} (${d.type}) is any of these values (a comma list; none: unset)${d.type === 'multiselect' ? '; a multiselect must hold ALL listed values' : ''}.`,
      schema: { type: 'string' },
    };
    if (!isRangeType(d.type)) return [filter];
    const bound = (op: 'gte' | 'lte'): Json => ({
      name: `cf.${d.key}.${op}`,
      in: 'query',
      required: false,
      description: `Tickets whose ${d.key} is ${op === 'gte' ? 'at least' : 'at most'} this value.`,
      schema: { type: 'string' },
    });
    return [filter, bound('gte'), bound('lte')];
  });

/** The keys `sort` accepts for these fields (every type but textarea and multiselect). */
export const sortableKeys = (defs: readonly TicketFieldDefinition[]): string[] =>
  defs.filter((d) => isSortableType(d.type)).map((d) => `cf.${d.key}`);
