import type { Json, SchemaResolver } from './schema-values.js';

// The operations of the served document, as the fuzz needs them: method, path template,
// each parameter with its schema (shared parameters resolved) and each request body's media
// types and schema. Read from the document, so an operation added there is fuzzed without
// a line changed here.

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly schema: Json;
  readonly example: unknown;
}

export interface BodyMedia {
  readonly mediaType: string;
  readonly schema: Json;
}

export interface Operation {
  /** "POST /v1/tickets/{ticket_id}/messages" */
  readonly name: string;
  readonly method: string;
  readonly template: string;
  readonly parameters: readonly Parameter[];
  readonly bodies: readonly BodyMedia[];
  /** `security: []`: the operation needs no token. */
  readonly public: boolean;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const methods = ['get', 'post', 'put', 'patch', 'delete'];

export const operationsOf = (document: Json, resolve: SchemaResolver): Operation[] => {
  const shared = ((document.components as Json).parameters ?? {}) as Record<string, Json>;
  const parameter = (p: unknown): Parameter => {
    const given =
      isObject(p) && typeof p.$ref === 'string' ? shared[p.$ref.replace('#/components/parameters/', '')] : p;
    if (!isObject(given)) throw new Error(`the document refers to a missing parameter ${JSON.stringify(p)}`);
    return {
      name: String(given.name),
      in: given.in as Parameter['in'],
      schema: resolve(given.schema),
      example: given.example,
    };
  };
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of methods) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const content = (isObject(operation.requestBody) ? operation.requestBody.content : {}) as Record<string, Json>;
      out.push({
        name: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        parameters: ((operation.parameters ?? []) as unknown[]).map(parameter),
        bodies: Object.entries(content).map(([mediaType, m]) => ({ mediaType, schema: resolve(m.schema) })),
        public: Array.isArray(operation.security) && operation.security.length === 0,
      });
    }
  }
  return out;
};

/** The fixture a path parameter names, by its name. */
export const pathFixture = (name: string): 'ticket' | 'message' | 'user' | 'group' | 'webhook' | null => {
  switch (name) {
    case 'ticket_id':
      return 'ticket';
    case 'message_id':
      return 'message';
    case 'user_id':
      return 'user';
    case 'group_id':
      return 'group';
    case 'webhook_id':
      return 'webhook';
    default:
      return null;
  }
};
