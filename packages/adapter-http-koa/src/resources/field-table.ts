import { nullable, type ShapedCodec } from '@support/domain';
import type * as t from 'io-ts';
import { strictObject, type BodyCodec } from '../decode/object-codec.js';
import type { Json } from '../openapi/json.js';
import { orNull, valueSchema, type Described } from '../openapi/value-schema.js';
import { wireNames, type WireNames } from '../wire-names.js';

// One description per resource's fields (recipes: docs/recipes.md#a-new-field): each entry of a
// resource's table, keyed by its API name, says how the representation shows it, the answer's
// schema of it, and whether and how a write takes it (the domain's name, the codec, required
// or optional in a creation and a replacement, reset by a patch's null). The representation,
// `fields`, the body codecs with their read-only refusals, and the document's schemas of the
// resource and of its bodies are all read from the table.

export type WriteMode = 'create' | 'replace' | 'patch';
/** How a creation or a replacement takes a field; refused: it is read-only there. */
export type Presence = 'required' | 'optional' | 'refused';

/** A value codec that says what it accepts (io-ts's Mixed, plus the domain's shape). */
type Codec = t.Mixed & Pick<ShapedCodec<unknown>, 'shape'>;

export interface Writing {
  /** The domain's name of the field (what the decoded command names it). */
  readonly domain: string;
  readonly codec: Codec;
  readonly create: Presence;
  readonly replace: Presence;
  /** A patch's null resets it to its default (a codec that takes null itself needs none of this). */
  readonly resettable: boolean;
  /** 'refused': a patch does not take it (a message's attachment_ids: a creation's only). */
  readonly patch?: 'refused';
  /**
   * What the error says when a body of a mode that refuses this write-only field names it
   * (a shown field is refused as read-only); without it, the field is unknown there.
   */
  readonly refusedSaid?: string;
  /** The document's description of the value. */
  readonly said: Described;
  /** The description a creation's schema gives instead, where it differs. */
  readonly saidOnCreate?: Described;
  /** The description a patch's schema gives instead, where it differs (a field a patch may name only as it is). */
  readonly saidOnPatch?: Described;
}

export interface Field<S> {
  /** The representation's value; absent: a field of the bodies only, never answered (customer_id). */
  readonly show?: (source: S) => unknown;
  /** The answer's schema of it. */
  readonly schema?: Json;
  readonly write?: Writing;
}

export type FieldTable<S> = Readonly<Record<string, Field<S>>>;

/** A field the server sets: shown, never written (a body that names it is refused as read-only). */
export const answered = <S>(
  show: (source: S) => unknown,
  schema: Json,
): { readonly show: (source: S) => unknown; readonly schema: Json } => ({
  show,
  schema,
});

/** A field answered and written under the same name: its schema is its codec's. */
export const writable = <S, const W extends Writing>(
  show: (source: S) => unknown,
  write: W,
): { readonly show: (source: S) => unknown; readonly schema: Json; readonly write: W } => ({
  show,
  schema: valueSchema(write.codec.shape, write.said),
  write,
});

/** A field of the bodies only (customer_id: answered as the customer's link). */
export const writeOnly = <const W extends Writing>(write: W): { readonly write: W } => ({ write });

/** The API's names of the fields a representation shows, in its order. */
export type ShownName<T> = { [K in keyof T]: T[K] extends { show: unknown } ? K : never }[keyof T] & string;

export const shownNames = <S, T extends FieldTable<S>>(table: T): readonly ShownName<T>[] =>
  Object.keys(table).filter((k) => table[k]?.show !== undefined) as ShownName<T>[];

/** The representation: every shown field, in the table's order. */
export const representation = <S>(table: FieldTable<S>): ((source: S) => Record<string, unknown>) => {
  const shown = Object.entries(table).flatMap(([wire, f]) => (f.show === undefined ? [] : [[wire, f.show] as const]));
  return (source) => {
    const out: Record<string, unknown> = {};
    for (const [wire, show] of shown) out[wire] = show(source);
    return out;
  };
};

/** The answer's schema properties, in the table's order. */
export const answerProperties = <S>(table: FieldTable<S>): Record<string, Json> =>
  Object.fromEntries(
    Object.entries(table).flatMap(([wire, f]) =>
      f.schema === undefined || f.show === undefined ? [] : [[wire, f.schema]],
    ),
  );

const takes = (w: Writing | undefined, mode: WriteMode): w is Writing =>
  w !== undefined && (mode === 'patch' ? w.patch !== 'refused' : w[mode] !== 'refused');

const writings = <S>(table: FieldTable<S>, mode: WriteMode): [string, Writing][] =>
  Object.entries(table).flatMap(([wire, f]) => (takes(f.write, mode) ? [[wire, f.write] as [string, Writing]] : []));

/** The API's names of the answer's fields a body of this mode may not write. */
export const readOnlyIn = <S>(table: FieldTable<S>, mode: WriteMode): string[] =>
  Object.entries(table).flatMap(([wire, f]) => (f.show !== undefined && !takes(f.write, mode) ? [wire] : []));

/** The write-only fields a body of this mode refuses that say why (Writing.refusedSaid), by their API names. */
const refusedWithReason = <S>(table: FieldTable<S>, mode: WriteMode): Record<string, string> =>
  Object.fromEntries(
    Object.entries(table).flatMap(([wire, f]): [string, string][] => {
      const said = f.write?.refusedSaid;
      return f.show === undefined && said !== undefined && !takes(f.write, mode) ? [[wire, said]] : [];
    }),
  );

/** The domain's names against the API's, for every written field named otherwise, plus `more` (sort fields, relations). */
export const namesOf = <S>(table: FieldTable<S>, more: Readonly<Record<string, string>> = {}): WireNames =>
  wireNames({
    ...Object.fromEntries(
      Object.entries(table).flatMap(([wire, f]) =>
        f.write === undefined || f.write.domain === wire ? [] : [[f.write.domain, wire]],
      ),
    ),
    ...more,
  });

const patchCodec = (w: Writing): t.Mixed => (w.resettable ? nullable(w.codec as ShapedCodec<unknown>) : w.codec);

type Takes<W, M extends WriteMode> = M extends 'patch'
  ? W extends { readonly patch: 'refused' }
    ? false
    : true
  : W extends Readonly<Record<M, 'refused'>>
    ? false
    : true;
/** The domain's names of the fields a body of mode M takes. */
export type BodyFields<T, M extends WriteMode> = {
  [K in keyof T]: T[K] extends { write: infer W extends Writing }
    ? Takes<W, M> extends true
      ? W['domain']
      : never
    : never;
}[keyof T];
type Mismatch<I, T, M extends WriteMode> = Exclude<keyof I, BodyFields<T, M>> | Exclude<BodyFields<T, M>, keyof I>;

/**
 * The body codec of a write: the table's fields that mode takes, under their API names, decoded
 * into the command I. A field of I the table does not take, or the other way round, fails the
 * build here, naming it (`missing`).
 */
export const bodyCodec =
  <I>() =>
  <T extends FieldTable<never>, M extends WriteMode>(
    name: string,
    table: T,
    mode: M,
    names: WireNames,
    /** Names of the server's that no answer of this table shows (a webhook's secret), refused as read-only too. */
    alsoReadOnly: readonly string[] = [],
  ): [Mismatch<I, T, M>] extends [never] ? BodyCodec<I> : { missing: Mismatch<I, T, M> } => {
    const required: Record<string, t.Mixed> = {};
    const optional: Record<string, t.Mixed> = {};
    const m: WriteMode = mode;
    for (const [, w] of writings(table, m)) {
      if (m === 'patch') optional[w.domain] = patchCodec(w);
      else (w[m] === 'required' ? required : optional)[w.domain] = w.codec;
    }
    const codec = strictObject(name, {
      required,
      optional,
      names,
      readOnly: [...readOnlyIn(table, mode), ...alsoReadOnly],
      refusedHere: refusedWithReason(table, mode),
      ...(mode === 'patch' ? { mergePatch: true } : {}),
    });
    return codec as never;
  };

/** The document's schema of a body of this mode: its properties and required fields, from the table. */
export const bodySchema = <S>(table: FieldTable<S>, mode: WriteMode, description?: string): Json => {
  const entries = writings(table, mode);
  const required = mode === 'patch' ? [] : entries.filter(([, w]) => w[mode] === 'required').map(([wire]) => wire);
  const schemaOf = (w: Writing): Json => {
    const said = mode === 'create' ? w.saidOnCreate : mode === 'patch' ? w.saidOnPatch : undefined;
    const base = valueSchema(w.codec.shape, said ?? w.said);
    return mode === 'patch' && w.resettable ? orNull(base) : base;
  };
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    additionalProperties: false,
    ...(required.length > 0 ? { required } : {}),
    properties: Object.fromEntries(entries.map(([wire, w]) => [wire, schemaOf(w)])),
  };
};
