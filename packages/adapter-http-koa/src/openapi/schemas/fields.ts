import type { Json } from '../json.js';

// Building blocks of the resource schemas: server-set ids, URLs and times, bounded text,
// nullable values and references to other resources by id.

export const id = (description: string): Json => ({
  type: 'integer',
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description,
  readOnly: true,
});
export const url = (description: string): Json => ({ type: 'string', format: 'uri', description, readOnly: true });
export const timestamp = (description: string): Json => ({
  type: 'string',
  format: 'date-time',
  description: `${description} ISO 8601 in UTC with milliseconds, set by the server.`,
  examples: ['2026-01-06T09:00:00.000Z'],
  readOnly: true,
});
export const text = (min: number, max: number, description: string): Json => ({
  type: 'string',
  minLength: min,
  maxLength: max,
  description,
});
export const nullable = (schema: Json): Json => ({ oneOf: [schema, { type: 'null' }] });
export const idRef = (what: string): Json => ({
  type: 'integer',
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: `The id of a ${what}.`,
});
