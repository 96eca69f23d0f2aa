import { customFieldLimits as cf, isRangeType, isSortableType, type TicketFieldDefinition } from '@support/domain';
import { answerProperties, bodySchema } from '../../resources/field-table.js';
import { ticketFieldTable } from '../../resources/ticket-fields.js';
import type { Json } from '../json.js';

// Custom ticket fields (contract §10): a definition as the API answers it (TicketField) and
// takes it (TicketFieldCreate, TicketFieldPatch), whose properties are its field table's
// (resources/ticket-fields.ts), and a ticket's `custom_fields` (CustomFields,
// CustomFieldsWrite). The served document (`withCustomFields`) describes custom_fields with
// the fields defined at the time: one property per key, typed, options as an enum, a regexp's
// pattern, so that a client generated from it sees them.

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

export const ticketFieldSchemas = (): Record<string, Json> => {
  const properties = answerProperties(ticketFieldTable);
  return {
    TicketField: {
      type: 'object',
      description: 'A custom ticket field (contract §10).',
      additionalProperties: false,
      required: Object.keys(properties),
      properties,
    },
    TicketFieldCreate: bodySchema(ticketFieldTable, 'create', 'POST /v1/ticket_fields (admins). At most 100 fields.'),
    TicketFieldPatch: bodySchema(
      ticketFieldTable,
      'patch',
      'PATCH (JSON merge patch): title, description, options, required, customer_visible, customer_editable and position may change; key, type and pattern may only be given as they are.',
    ),
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
  };
};

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
