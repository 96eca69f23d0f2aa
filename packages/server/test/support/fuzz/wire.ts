// What the fuzz generates before it knows the world it is sent into: JSON values that may
// hold references to fixtures (a customer's id, a group's id) and raw JSON text that
// JSON.stringify cannot write (1e400, a key given twice, 5,000 nested arrays), and the
// serializer that turns them into bytes. References are resolved when the request is sent,
// because the fixtures are made again as the run goes on (fast-check builds its values first).

/** The fixtures a value may refer to. */
export type FixtureKind =
  'customer' | 'staff' | 'user' | 'group' | 'ticket' | 'message' | 'webhook' | 'seq' | 'email' | 'password' | 'refresh';

/** A fixture's id, picked by position among the fixtures of its kind when the request is sent. */
export interface Ref {
  readonly ref: FixtureKind;
  readonly pick: number;
}

/** JSON text written as is. */
export interface Raw {
  readonly raw: string;
}

/** An object written with these entries in this order: a key may come twice, "__proto__" is a plain key. */
export interface Entries {
  readonly entries: readonly (readonly [string, unknown])[];
}

export const isEntries = (v: unknown): v is Entries =>
  typeof v === 'object' &&
  v !== null &&
  'entries' in v &&
  Array.isArray((v as Entries).entries) &&
  Object.keys(v).length === 1;
export const isRef = (v: unknown): v is Ref => typeof v === 'object' && v !== null && 'ref' in v && 'pick' in v;
export const isRaw = (v: unknown): v is Raw =>
  typeof v === 'object' && v !== null && 'raw' in v && Object.keys(v).length === 1;

/** Answers a fixture's id (or a number no fixture has, when there is none of that kind), or its e-mail, password or refresh token. */
export type Resolver = (ref: Ref) => number | string;

/** JSON text of a generated value: references resolved, raw parts written as they are, keys in the order given. */
export const toJsonText = (value: unknown, resolve: Resolver): string => {
  if (isRef(value)) return JSON.stringify(resolve(value));
  if (isRaw(value)) return value.raw;
  if (isEntries(value))
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v, resolve)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map((v) => toJsonText(v, resolve)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    // Entries, not an object spread: a generated "__proto__" key must stay an ordinary key.
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v, resolve)}`)
      .join(',')}}`;
  }
  return value === undefined ? 'null' : JSON.stringify(value);
};

/** A text part of a URL or a form: what was generated, percent-encoded, or written as it is when it is already on the wire. */
export type UrlText = { readonly text: string } | { readonly encoded: string };

/**
 * Percent-encodes a string as UTF-8. A lone surrogate has no UTF-8 form (encodeURIComponent
 * throws): it is written as the three bytes a careless encoder makes of it (WTF-8), which
 * a server must refuse as invalid UTF-8, not crash on.
 */
export const percentEncode = (s: string): string => {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(ch);
  }
  return out;
};

export const urlText = (t: UrlText): string => ('encoded' in t ? t.encoded : percentEncode(t.text));
