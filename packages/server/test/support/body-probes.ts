import type { RequestBodyCodec } from '@support/adapter-http-koa';
import { schemaValidator } from './response-checks.js';

// Asks a request-body schema of the document and the codec it describes the same questions
// and lists every body on which their answers differ. The probes come from the schema
// (each property: its enum values, its bounds and one past them, code points beyond the
// BMP, wrong JSON types, null; the members of objects and of a list's objects, the same way;
// each required field left out; an unknown field; every field
// of the resource the body does not name); ajv judges the schema's side, so a probe needs
// no expected answer of its own. Left out on purpose, because the two differ by design:
// repeated list items (the schema says uniqueItems, the codec keeps the first of each, as
// the description says), blank strings (the schema cannot say "not blank" without a
// pattern; its description does), and the finer points of the e-mail grammar.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const oneMore = (n: unknown): number => (typeof n === 'number' ? n + 1 : 1);

/** A property's schema without its "or null" branch. */
const valuesOf = (schema: Json): Json => {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf.filter(isObject) : [];
  const nonNull = branches.filter((b) => b.type !== 'null');
  return nonNull.length === 1 && branches.length === 2 ? nonNull[0]! : schema;
};

const uriBase = 'https://example.com/';

const text = (n: number, format: unknown): string => {
  if (format === 'email') return `${'a'.repeat(Math.max(1, n - 12))}@example.com`;
  // A URI of exactly n characters when n allows one; shorter ones are plain text, no URI.
  if (format === 'uri' && n >= uriBase.length) return `${uriBase}${'x'.repeat(n - uriBase.length)}`;
  return 'x'.repeat(n);
};

/** n different values the schema of a list's items accepts (as far as it can tell: ajv decides). */
const distinct = (item: Json, n: number): unknown[] =>
  Array.from({ length: n }, (_, i) => {
    // Allowed values while there are enough of them (a list of every event type).
    if (Array.isArray(item.enum) && n <= item.enum.length) return item.enum[i] as unknown;
    if (item.type === 'integer') return (typeof item.minimum === 'number' ? item.minimum : 1) + i;
    const id = `t${i.toString(36)}`;
    const min = typeof item.minLength === 'number' ? item.minLength : 0;
    return id.padEnd(min, 'x');
  });

/** Asks the document's schema whether it accepts a value. */
type Accepts = (schema: unknown, value: unknown) => boolean;

/**
 * Objects worth trying for an object schema with members (an option {value, title}): the
 * smallest it accepts, then that one with each member given each of its own candidates, and
 * each required member left out, so that a member of a list's items is probed as a body's is.
 */
const memberCandidates = (s: Json, accepts: Accepts): unknown[] => {
  const members = (isObject(s.properties) ? s.properties : {}) as Record<string, Json>;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const smallest: Json = {};
  for (const name of required) {
    const value = candidates(members[name] ?? {}, accepts).find((v) => accepts(members[name] ?? {}, v));
    if (value !== undefined) smallest[name] = value;
  }
  const out: unknown[] = [smallest, { ...smallest, colour: 'red' }];
  for (const [name, member] of Object.entries(members))
    for (const value of candidates(member, accepts)) out.push({ ...smallest, [name]: value });
  for (const name of required) {
    const { [name]: _left, ...without } = smallest;
    out.push(without);
  }
  return out;
};

/** Values worth trying for a property: inside, on and just past what its schema allows, and of other JSON types. */
const candidates = (property: Json, accepts: Accepts): unknown[] => {
  const s = valuesOf(property);
  const out: unknown[] = [null, {}];
  if (Array.isArray(s.enum)) return [...(s.enum as unknown[]), 'not-one-of-them', 42, ...out];
  switch (s.type) {
    case 'string': {
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      const typical =
        s.format === 'email'
          ? 'ada@example.com'
          : s.format === 'uri'
            ? `${uriBase}hook`
            : text(Math.max(min, 1), s.format);
      out.push(typical, text(min, s.format), 42, true, []);
      if (min > 0) out.push(text(min - 1, s.format));
      if (typeof s.maxLength === 'number') {
        out.push(text(s.maxLength, s.format), text(s.maxLength + 1, s.format));
        // Lengths count code points (JSON Schema and the codecs alike), not UTF-16 units.
        if (s.format === undefined) out.push('😀'.repeat(s.maxLength), '😀'.repeat(s.maxLength + 1));
      }
      if (s.format === 'email') out.push('not an e-mail address');
      if (s.format === 'uri')
        out.push('http://127.0.0.1:8080/hook', 'ftp://example.com/hook', 'mailto:ada@example.com', '/relative/path');
      return out;
    }
    case 'integer': {
      const min = typeof s.minimum === 'number' ? s.minimum : 1;
      out.push(min, min - 1, 1.5, '1', true);
      if (typeof s.maximum === 'number') out.push(s.maximum, s.maximum + 1);
      return out;
    }
    case 'boolean':
      return [true, false, 'true', 0, ...out];
    case 'array': {
      const item = isObject(s.items) ? valuesOf(s.items) : {};
      out.push([], distinct(item, 1), 'x');
      if (typeof s.maxItems === 'number') out.push(distinct(item, s.maxItems), distinct(item, oneMore(s.maxItems)));
      for (const value of candidates(item, accepts)) out.push([value]);
      return out;
    }
    case 'object':
      return isObject(s.properties) ? [1, 'x', ...out, ...memberCandidates(s, accepts)] : [1, 'x', ...out];
    default:
      return [1, 'x', ...out];
  }
};

const shown = (body: unknown): string =>
  JSON.stringify(body, (_key, v: unknown) => {
    // Counted and cut in code points, as the bounds are.
    const codePoints = typeof v === 'string' ? Array.from(v) : [];
    if (codePoints.length > 24) return `${codePoints.slice(0, 6).join('')}…(${codePoints.length} characters)`;
    if (Array.isArray(v) && v.length > 4) return `[${JSON.stringify(v[0])}, …(${v.length} items)]`;
    return v;
  });

/** Every disagreement between the document's schema of a body and the codec paired with it; none when they agree. */
export const bodyDisagreements = (
  document: Json,
  pair: RequestBodyCodec,
  codecs: readonly RequestBodyCodec[] = [],
): string[] => {
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const body = schemas[pair.schema];
  const resource = schemas[pair.resource];
  const where = `${pair.schema} (the document) and ${pair.codec} (the codec)`;
  if (body === undefined || resource === undefined)
    return [`${where}: the document has no schema ${pair.schema} or ${pair.resource}`];
  const properties = (body.properties ?? {}) as Record<string, Json>;
  const required = Array.isArray(body.required) ? (body.required as string[]) : [];
  const validate = schemaValidator(document, 'request');
  const accepts = (schema: unknown, value: unknown): boolean => {
    try {
      validate(where, schema, value);
      return true;
    } catch {
      return false;
    }
  };
  const bodyRef = { $ref: `#/components/schemas/${pair.schema}` };
  const found: string[] = [];

  /** Asks both; when both refuse a probe about one field, the codec must name that field. */
  const probe = (value: Json, about?: string): readonly { field: string; code: string }[] => {
    const documentSays = accepts(bodyRef, value);
    const errors = pair.errorsOf(value);
    const codecSays = errors.length === 0;
    const said = (yes: boolean): string => (yes ? 'accepts' : 'refuses');
    if (documentSays !== codecSays) {
      found.push(
        `${where}: ${shown(value)}: the document ${said(documentSays)} it, the codec ${said(codecSays)} it${codecSays ? '' : ` (${errors.map((e) => `${e.field}: ${e.code}`).join(', ')})`}`,
      );
    } else if (
      !codecSays &&
      about !== undefined &&
      !errors.some((e) => e.field === about || e.field.startsWith(`${about}.`))
    ) {
      found.push(
        `${where}: ${shown(value)}: both refuse it, but the codec names ${errors.map((e) => e.field).join(', ')}, not ${about}`,
      );
    }
    return errors;
  };

  // Which fields must be given: the codec names each one missing from an empty body.
  const missing = probe({})
    .filter((e) => e.code === 'required')
    .map((e) => e.field)
    .sort();
  if (JSON.stringify(missing) !== JSON.stringify([...required].sort())) {
    found.push(
      `${where}: required fields differ: the document requires [${[...required].sort().join(', ')}], the codec [${missing.join(', ')}]`,
    );
  }

  const minimal: Json = {};
  for (const name of required) {
    const property = properties[name] ?? {};
    const value = candidates(property, accepts).find((v) => accepts(property, v));
    if (value === undefined) found.push(`${where}: no value found that the document accepts for ${name}`);
    else minimal[name] = value;
  }
  probe(minimal);

  for (const [name, property] of Object.entries(properties)) {
    for (const value of candidates(property, accepts)) probe({ ...minimal, [name]: value }, name);
  }
  for (const name of required) {
    const { [name]: _left, ...without } = minimal;
    probe(without, name);
  }
  const unknown = probe({ ...minimal, colour: 'red' }, 'colour');
  if (!unknown.some((e) => e.field === 'colour' && e.code === 'unknown_field'))
    found.push(`${where}: an unknown field is not refused as unknown_field`);

  // Fields of the resource the body does not name: refused, and as read_only exactly when
  // the document marks them readOnly or another body of the resource writes them (a new
  // ticket's state).
  const written = new Set(
    codecs
      .filter((c) => c.resource === pair.resource)
      .flatMap((c) => Object.keys((schemas[c.schema]?.properties ?? {}) as Json)),
  );
  for (const [name, property] of Object.entries((resource.properties ?? {}) as Record<string, Json>)) {
    if (Object.hasOwn(properties, name)) continue;
    const errors = probe({ ...minimal, [name]: 1 }, name);
    const codecSaysReadOnly = errors.some((e) => e.field === name && e.code === 'read_only');
    const documentSaysReadOnly = property.readOnly === true || written.has(name);
    if (codecSaysReadOnly !== documentSaysReadOnly) {
      const codecAnswer = codecSaysReadOnly
        ? 'refuses it as read_only'
        : `answers ${errors.map((e) => `${e.field}: ${e.code}`).join(', ') || 'no error'}`;
      found.push(
        `${where}: the document ${documentSaysReadOnly ? 'marks' : 'does not mark'} ${pair.resource}.${name} read-only; the codec ${codecAnswer}`,
      );
    }
  }
  return found;
};
