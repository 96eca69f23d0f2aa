import fc from 'fast-check';
import type { FixtureKind, Raw, Ref } from './wire.js';

// Values for a JSON Schema of the served document, in three kinds: valid (what the schema
// accepts, ids often those of real fixtures), boundary (on each bound: the shortest and
// longest string, the smallest and largest number, the fullest list) and invalid (what the
// schema refuses and a careless server trips on: wrong JSON types, one past each bound,
// operator-looking objects such as {"$gt": ""}, lone surrogates, huge and non-finite numbers,
// deep nesting). Nothing here says what the server must answer: the document does, per
// answer, and the fuzz asserts only that it was documented and not a 5xx.

export type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves `#/components/schemas/X` references of the document. */
export type SchemaResolver = (schema: unknown) => Json;

export const schemaResolver =
  (document: Json): SchemaResolver =>
  (schema) => {
    let s = schema;
    for (let i = 0; i < 8 && isObject(s) && typeof s.$ref === 'string'; i++) {
      const name = s.$ref.replace('#/components/schemas/', '');
      s = ((document.components as Json).schemas as Json)[name];
    }
    return isObject(s) ? s : {};
  };

const maxSafe = Number.MAX_SAFE_INTEGER;

const ref = (kind: FixtureKind): fc.Arbitrary<Ref> => fc.nat({ max: 7 }).map((pick) => ({ ref: kind, pick }));
export const raw = (text: string): Raw => ({ raw: text });

/** Which fixtures an id property names, by the property's name. */
export const fixtureOf = (name: string | undefined): FixtureKind | null => {
  switch (name) {
    case 'customer_id':
      return 'customer';
    case 'assigned_user_id':
      return 'staff';
    case 'group_id':
    case 'group_ids':
      return 'group';
    case 'after':
      return 'seq';
    case 'username':
      return 'email';
    case 'password':
      return 'password';
    case 'refresh_token':
    case 'token':
      return 'refresh';
    default:
      return null;
  }
};

/** A string of exactly n code points, of one repeated character (cheap to make at 50,000). */
export const ofLength = (n: number): fc.Arbitrary<string> =>
  fc.constantFrom('x', 'é', '😀', ' ', '\u0000').map((c) => c.repeat(n));

const emails = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.emailAddress().filter((e) => e.length <= max),
    fc
      .tuple(fc.stringMatching(/^[a-z0-9.+_-]{1,20}$/), fc.constantFrom('example.com', 'EXAMPLE.org', 'x.io'))
      .map(([l, d]) => `${l}@${d}`),
  );

const uris = (s: Json): fc.Arbitrary<string> => {
  const max = typeof s.maxLength === 'number' ? s.maxLength : 2048;
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern) : null;
  return fc
    .oneof(
      fc.webUrl({ validSchemes: ['https', 'http'], withQueryParameters: true }),
      fc.constantFrom('https://hooks.example.com/in', 'http://127.0.0.1:9/hook', 'https://93.184.215.14/x'),
    )
    .filter((u) => u.length <= max && (pattern === null || pattern.test(u)));
};

const strings = (s: Json, name?: string): fc.Arbitrary<unknown> => {
  const kind = fixtureOf(name);
  const plain = plainStrings(s);
  return kind === null ? plain : fc.oneof({ weight: 3, arbitrary: ref(kind) }, { weight: 1, arbitrary: plain });
};

/**
 * The pattern without its lookahead groups ((?=...), (?!...)), which fast-check cannot generate
 * from: values are generated from the rest and filtered by the whole pattern (the sort
 * parameter's refuses a field named twice with one).
 */
const withoutLookaheads = (source: string): string => {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') {
      out += source.slice(i, i + 2);
      i += 1;
    } else if (source.startsWith('(?=', i) || source.startsWith('(?!', i)) {
      let depth = 0;
      for (; i < source.length; i++) {
        if (source[i] === '\\') i += 1;
        else if (source[i] === '(') depth += 1;
        else if (source[i] === ')' && --depth === 0) break;
      }
    } else out += source[i] ?? '';
  }
  return out;
};

const plainStrings = (s: Json): fc.Arbitrary<string> => {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : 300;
  if (s.format === 'email') return emails(maxLength);
  if (s.format === 'uri') return uris(s);
  if (s.format === 'date-time')
    return fc
      .date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (typeof s.pattern === 'string') {
    const pattern = new RegExp(s.pattern);
    return fc
      .stringMatching(new RegExp(withoutLookaheads(s.pattern)))
      .filter((v) => v.length >= minLength && v.length <= maxLength && pattern.test(v));
  }
  return fc.oneof(
    fc.string({ minLength, maxLength: Math.min(maxLength, 40) }),
    fc.string({ unit: 'binary', minLength, maxLength: Math.min(maxLength, 40) }),
    fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, 12) }),
  );
};

const integers = (s: Json, name?: string): fc.Arbitrary<unknown> => {
  const min = typeof s.minimum === 'number' ? s.minimum : -maxSafe;
  const max = typeof s.maximum === 'number' ? s.maximum : maxSafe;
  const plain = fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) });
  const kind = fixtureOf(name);
  return kind === null ? plain : fc.oneof({ weight: 4, arbitrary: ref(kind) }, { weight: 1, arbitrary: plain });
};

/** Values the schema accepts. */
export const validValue = (
  schema: unknown,
  resolve: SchemaResolver,
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> => {
  const s = resolve(schema);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null;
  if (branches !== null) return fc.oneof(...branches.map((b) => validValue(b, resolve, name, depth)));
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integers(s, name);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'string':
      return strings(s, name);
    case 'array': {
      const item = validValue(s.items ?? {}, resolve, name, depth + 1);
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.min(typeof s.maxItems === 'number' ? s.maxItems : 5, 5);
      return s.uniqueItems === true
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object':
      return objects(s, resolve, depth);
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean());
  }
};

/** An object the schema accepts: every required property, any of the others. */
const objects = (s: Json, resolve: SchemaResolver, depth: number): fc.Arbitrary<Json> => {
  if (depth > 3) return fc.constant({});
  const properties = isObject(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, p] of Object.entries(properties)) model[name] = validValue(p, resolve, name, depth + 1);
  return fc.record(model, { requiredKeys: required.filter((r) => r in model) });
};

/** Values on the schema's bounds (still valid by the schema). */
export const boundaryValue = (schema: unknown, resolve: SchemaResolver, name?: string): fc.Arbitrary<unknown> => {
  const s = resolve(schema);
  const branches = Array.isArray(s.oneOf) ? s.oneOf : null;
  if (branches !== null) return fc.oneof(...branches.map((b) => boundaryValue(b, resolve, name)));
  switch (s.type) {
    case 'string': {
      if (s.format !== undefined || typeof s.pattern === 'string' || Array.isArray(s.enum))
        return validValue(s, resolve, name);
      const lengths = [
        typeof s.minLength === 'number' ? s.minLength : 0,
        ...(typeof s.maxLength === 'number' ? [s.maxLength] : []),
      ];
      return fc.constantFrom(...lengths).chain(ofLength);
    }
    case 'integer':
      return fc.constantFrom(
        typeof s.minimum === 'number' ? s.minimum : -maxSafe,
        typeof s.maximum === 'number' ? s.maximum : maxSafe,
      );
    case 'array': {
      const max = typeof s.maxItems === 'number' ? s.maxItems : 0;
      const item = resolve(s.items ?? {});
      if (Array.isArray(item.enum)) return fc.constant((item.enum as unknown[]).slice(0, max));
      if (item.type === 'integer') return fc.constant(Array.from({ length: max }, (_, i) => i + 1));
      return fc.constant(Array.from({ length: max }, (_, i) => `t${i}`));
    }
    default:
      return validValue(s, resolve, name);
  }
};
