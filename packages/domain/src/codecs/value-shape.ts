import type * as t from 'io-ts';

// What a value codec accepts, as data: the HTTP adapter derives the document's JSON Schemas
// from it (adapter-http-koa/src/openapi/value-schema.ts), so a limit, an enum or a null
// written once in a codec is the limit the document states. Only the shape; prose is the edge's.

export type ValueShape =
  | {
      readonly kind: 'string';
      readonly min: number;
      readonly max: number;
      readonly nonBlank: boolean;
      /** A regular expression every accepted value matches (as JSON Schema reads one), where the rule says more than a length. */
      readonly pattern?: string;
    }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'reference'; readonly what: string }
  /** At most `max` (none: the largest safe integer). */
  | { readonly kind: 'integer'; readonly min: number; readonly max?: number }
  | { readonly kind: 'email' }
  | { readonly kind: 'url'; readonly min: number; readonly max: number }
  | { readonly kind: 'date-time' }
  | { readonly kind: 'list'; readonly item: ValueShape; readonly maxItems: number; readonly minItems: number }
  | { readonly kind: 'nullable'; readonly value: ValueShape }
  /** A ticket's custom field values by key (contract §10): what each may hold, the definitions say. */
  | { readonly kind: 'customValues'; readonly maxKeys: number }
  /** A custom field's options (contract §10): at most `maxItems` objects {value, title}, title optional. */
  | { readonly kind: 'options'; readonly maxItems: number; readonly value: ValueShape; readonly title: ValueShape };

/** A codec that says what it accepts. */
export type ShapedCodec<A, O = A> = t.Type<A, O> & { readonly shape: ValueShape };

export const shaped = <A, O>(codec: t.Type<A, O>, shape: ValueShape): ShapedCodec<A, O> =>
  Object.assign(codec, { shape });
