import type { ValueShape } from '@support/domain';
import { ref, type Json } from './json.js';

// The JSON Schema of a value, from what its codec says it accepts (the domain's ValueShape):
// limits, enums, nullability and references are the codec's, so the document states the very
// rules the edge decodes with. The description is the document's own prose.

const idRange = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

export interface Described {
  /** The value's description (a reference without one: "The id of a <what>."). */
  readonly description?: string;
  /** The description of each item of a list. */
  readonly items?: string;
  /** A secret (a password): shown masked by a form (format password), and never in an answer (writeOnly). */
  readonly secret?: true;
  /** A pattern the text also matches, where the document can say more of the rule than its limits (a URL's scheme). */
  readonly pattern?: string;
  /** The description of each member of an object item (a custom field's option: value, title). */
  readonly members?: Readonly<Record<string, string>>;
}

export const valueSchema = (shape: ValueShape, said: Described = {}): Json => {
  const description = said.description === undefined ? {} : { description: said.description };
  switch (shape.kind) {
    case 'string':
      return {
        type: 'string',
        ...(said.secret === true ? { format: 'password' } : {}),
        minLength: shape.min,
        maxLength: shape.max,
        ...(shape.pattern === undefined ? {} : { pattern: shape.pattern }),
        ...(said.secret === true ? { writeOnly: true } : {}),
        ...description,
      };
    case 'enum':
      return { type: 'string', enum: [...shape.values], ...description };
    case 'boolean':
      return { type: 'boolean', ...description };
    case 'reference':
      return { ...idRange, description: said.description ?? `The id of ${shape.what}.` };
    case 'integer':
      return { type: 'integer', minimum: shape.min, maximum: shape.max ?? Number.MAX_SAFE_INTEGER, ...description };
    case 'email':
      return { type: 'string', format: 'email', maxLength: 254, ...description };
    case 'url':
      return {
        type: 'string',
        format: 'uri',
        minLength: shape.min,
        maxLength: shape.max,
        ...(said.pattern === undefined ? {} : { pattern: said.pattern }),
        ...description,
      };
    case 'date-time':
      return { type: 'string', format: 'date-time', ...description };
    case 'list':
      return {
        type: 'array',
        items: valueSchema(shape.item, said.items === undefined ? {} : { description: said.items }),
        ...(shape.minItems > 0 ? { minItems: shape.minItems } : {}),
        maxItems: shape.maxItems,
        uniqueItems: true,
        ...description,
      };
    case 'nullable':
      return { oneOf: [valueSchema(shape.value, said), { type: 'null' }] };
    case 'options': {
      const member = (name: string): Described => {
        const text = said.members?.[name];
        return text === undefined ? {} : { description: text };
      };
      return {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['value'],
          properties: {
            value: valueSchema(shape.value, member('value')),
            title: valueSchema(shape.title, member('title')),
          },
        },
        maxItems: shape.maxItems,
        ...description,
      };
    }
    case 'customValues':
      // Described with the fields defined now in the served document (openapi/custom-fields.ts).
      return { oneOf: [ref('CustomFieldsWrite'), { type: 'null' }], ...description };
  }
};

/** A schema that also takes null. */
export const orNull = (schema: Json): Json => ({ oneOf: [schema, { type: 'null' }] });
