import type * as t from 'io-ts';

// What a value codec accepts, as data: the HTTP adapter derives the document's JSON Schemas
// from it (adapter-http-koa/src/openapi/value-schema.ts), so a limit, an enum or a null
// written once in a codec is the limit the document states. Only the shape; prose is the edge's.

export type ValueShape =
  | { readonly kind: 'string'; readonly min: number; readonly max: number; readonly nonBlank: boolean }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'reference'; readonly what: string }
  | { readonly kind: 'integer'; readonly min: number }
  | { readonly kind: 'email' }
  | { readonly kind: 'url'; readonly min: number; readonly max: number }
  | { readonly kind: 'date-time' }
  | { readonly kind: 'list'; readonly item: ValueShape; readonly maxItems: number; readonly minItems: number }
  | { readonly kind: 'nullable'; readonly value: ValueShape }
  /** A ticket's custom field values by key (contract §10): what each may hold, the definitions say. */
  | { readonly kind: 'customValues'; readonly maxKeys: number };

/** A codec that says what it accepts. */
export type ShapedCodec<A, O = A> = t.Type<A, O> & { readonly shape: ValueShape };

export const shaped = <A, O>(codec: t.Type<A, O>, shape: ValueShape): ShapedCodec<A, O> =>
  Object.assign(codec, { shape });
