import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// The answer checks' JSON Schema side (response-checks.ts): ajv on the document's schemas.

export type Json = Record<string, unknown>;

export interface Received {
  readonly status: number;
  readonly header: (name: string) => string | undefined;
  /** The JSON body; undefined when there is none or it is not JSON. */
  readonly json: unknown;
  readonly text: string;
  readonly contentType: string;
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A schema of the document made ready for ajv: `$ref`s point into one registered schema;
 * in answers, write-only properties are forbidden (OpenAPI: they are never sent back).
 */
export const prepared = (schema: unknown, mode: 'answer' | 'request'): unknown => {
  if (Array.isArray(schema)) return schema.map((s) => prepared(s, mode));
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/components/schemas/', `${schemasId}#/$defs/`);
    else if (k === 'properties' && isObject(v)) {
      out[k] = Object.fromEntries(
        Object.entries(v).map(([name, s]) => [
          name,
          mode === 'answer' && isObject(s) && s.writeOnly === true ? false : prepared(s, mode),
        ]),
      );
    } else out[k] = prepared(v, mode);
  }
  return out;
};

export const schemasId = 'https://support.invalid/openapi';

/** Validates values against schemas of the document (JSON Schema 2020-12, ajv + ajv-formats); throws naming every mismatch. */
export const schemaValidator = (
  document: Json,
  mode: 'answer' | 'request',
): ((where: string, schema: unknown, value: unknown) => void) => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  formats.default(ajv);
  ajv.addFormat('password', true);
  const components = (document.components ?? {}) as { schemas?: Json };
  ajv.addSchema({ $id: schemasId, $defs: prepared(components.schemas ?? {}, mode) });
  const compiled = new Map<unknown, ValidateFunction>();
  return (where, schema, value) => {
    let v = compiled.get(schema);
    if (v === undefined) {
      v = ajv.compile(prepared(schema, mode) as Json);
      compiled.set(schema, v);
    }
    if (!v(value))
      throw new Error(
        `${where}: does not match the document: ${ajv.errorsText(v.errors, { separator: '; ' })}\n${JSON.stringify(value).slice(0, 600)}`,
      );
  };
};
