import type { TicketFieldDefinition } from '@support/domain';
import type { Json } from './json.js';
import { customFieldsSchema, customFilterParameters, sortableKeys } from './schemas/ticket-fields.js';

// The document as served (contract §10): the ticket's custom_fields described with the fields
// defined now (types, options as enum, patterns), the cf.<key> filters of the ticket lists,
// and the keys fields= and sort= accept. Derived per change of the definitions from the
// document built once; its ETag follows its content.

const listOperationIds = ['listTickets', 'listRecentlyClosedTickets'];

type Doc = Json & { components: Json & { schemas: Json; parameters: Json }; paths: Json };

const withFieldsEnum = (fields: Json, keys: readonly string[]): Json => {
  const schema = fields.schema as Json & { items: Json & { enum: string[] } };
  return { ...fields, schema: { ...schema, items: { ...schema.items, enum: [...schema.items.enum, ...keys] } } };
};

const withSortKeys = (sort: Json, keys: readonly string[]): Json => {
  if (keys.length === 0) return sort;
  const schema = sort.schema as Json & { pattern: string };
  // The sort field alternation of the static pattern, widened by the keys (each a-z0-9_ and dots escaped).
  const alternation = keys.map((k) => k.replace('.', '\\.')).join('|');
  return { ...sort, schema: { ...schema, pattern: schema.pattern.replaceAll('(id|', `(${alternation}|id|`) } };
};

/** The document with these fields; the same object when there are none. */
export const withCustomFields = (document: Json, defs: readonly TicketFieldDefinition[]): Json => {
  if (defs.length === 0) return document;
  const doc = document as Doc;
  const schemas = {
    ...doc.components.schemas,
    CustomFields: customFieldsSchema(defs),
    CustomFieldsWrite: customFieldsSchema(defs),
  };
  const parameters = {
    ...doc.components.parameters,
    Fields: withFieldsEnum(
      doc.components.parameters.Fields as Json,
      defs.map((d) => `cf.${d.key}`),
    ),
    Sort: withSortKeys(doc.components.parameters.Sort as Json, sortableKeys(defs)),
  };
  const filters = customFilterParameters(defs);
  const paths = Object.fromEntries(
    Object.entries(doc.paths).map(([path, item]) => {
      const methods = item as Record<string, Json>;
      const get = methods.get;
      if (get === undefined || !listOperationIds.includes(get.operationId as string)) return [path, item];
      return [path, { ...methods, get: { ...get, parameters: [...(get.parameters as Json[]), ...filters] } }];
    }),
  );
  return { ...doc, paths, components: { ...doc.components, schemas, parameters } };
};
