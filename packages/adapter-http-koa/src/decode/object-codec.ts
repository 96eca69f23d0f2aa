import type { DecodedBody } from '@support/application';
import { failWith, maxListedFieldErrors, toFieldErrors } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { LargeJsonBody } from '../conventions/json-thin.js';
import { sameNames, type WireNames } from '../wire-names.js';

type Props = Record<string, t.Mixed>;

type Decoded<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & {
  [K in keyof O]?: t.TypeOf<O[K]>;
};

export interface ObjectSpec<R extends Props, O extends Props> {
  /** The fields, under their domain names; the body names them as `names` says (default: alike). */
  readonly required: R;
  readonly optional: O;
  readonly names?: WireNames;
  /** Fields the server sets (their API names): named in the error as read-only rather than unknown. */
  readonly readOnly: readonly string[];
  /** Fields of the resource this body does not take, with why (still unknown fields here): a message's attachment_ids in a PUT. */
  readonly refusedHere?: Readonly<Record<string, string>>;
  /**
   * A JSON merge patch (RFC 7396): null removes a field, so null for a field that must
   * keep a value (its codec refuses null) is reported as `required`, not as a wrong type.
   */
  readonly mergePatch?: boolean;
}

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u);

/** A body codec that also tells which domain field a key of the body names (undefined: none), and the API's names. */
export interface BodyCodec<A> extends t.Type<A, unknown> {
  readonly fieldOf: (key: string) => string | undefined;
  readonly names: WireNames;
  /** The keys the body may have (the API's names). */
  readonly keys: ReadonlySet<string>;
  /** Of a body (refused or not), the fields whose values decode, by their domain names. */
  readonly accepted: (body: unknown) => Readonly<Record<string, unknown>>;
}

/**
 * An exact object codec that reports every problem at once: each unknown field,
 * each server-set field, each missing required field and each bad value.
 * (io-ts's own `t.exact` silently strips unknown fields; a public API should name them.)
 * It decodes the body's names into the domain's: its value and the field errors of its
 * fields name domain fields; an unknown or read-only key is named as the body gave it.
 */
export const strictObject = <R extends Props, O extends Props>(
  name: string,
  spec: ObjectSpec<R, O>,
): BodyCodec<Decoded<R, O>> => {
  const names = spec.names ?? sameNames;
  const fieldByKey = new Map(
    [...Object.keys(spec.required), ...Object.keys(spec.optional)].map((field) => [names.toWire(field), field]),
  );
  const refusedHere = new Map(Object.entries(spec.refusedHere ?? {}));
  // A link (customer, groups...) is answered as an object and written as ids (customer_id,
  // group_ids): refused, it names the field that writes it, not "set by the server".
  const readOnlyMessage = (key: string): string => {
    const twin = [`${key}_id`, `${key.replace(/s$/, '')}_ids`].find((k) => fieldByKey.has(k));
    return twin === undefined
      ? 'is set by the server and cannot be written here'
      : `is read-only: write ${twin} instead`;
  };
  const codec = new t.Type<Decoded<R, O>, unknown, unknown>(
    name,
    (u): u is Decoded<R, O> => isPlainObject(u),
    (u, c) => {
      if (!isPlainObject(u)) return failWith(u, c, 'invalid_type', 'the request body must be a JSON object');
      const errors: t.ValidationError[] = [];
      const out: Record<string, unknown> = {};
      const decodeField = (field: string, codec: t.Mixed, isRequired: boolean): void => {
        const key = names.toWire(field);
        const present = Object.hasOwn(u, key);
        const ctx = t.appendContext(c, field, codec, u[key]);
        if (!present) {
          if (isRequired) {
            const failure = failWith(undefined, ctx, 'required', 'is required');
            if (E.isLeft(failure)) for (const e of failure.left) errors.push(e);
          }
          return;
        }
        if (u[key] === null && (isRequired || (spec.mergePatch === true && !codec.is(null)))) {
          const failure = failWith(null, ctx, 'required', 'is required and cannot be null');
          if (E.isLeft(failure)) for (const e of failure.left) errors.push(e);
          return;
        }
        const r = codec.validate(u[key], ctx);
        if (E.isLeft(r)) for (const e of r.left) errors.push(e);
        else out[field] = r.right;
      };
      for (const [key, codec] of Object.entries(spec.required)) decodeField(key, codec, true);
      for (const [key, codec] of Object.entries(spec.optional)) decodeField(key, codec, false);
      // Then the keys the body should not have: each is an error, but a body of 100,000 unknown
      // keys builds only the first of them (up to maxListedFieldErrors errors in all) and counts
      // the rest (contract §11). The fields' own errors come first, so that they are listed.
      let omitted = 0;
      for (const key of Object.keys(u)) {
        if (fieldByKey.has(key)) continue;
        if (errors.length >= maxListedFieldErrors) {
          omitted += 1;
          continue;
        }
        const ctx = t.appendContext(c, key, t.unknown, u[key]);
        const failure = spec.readOnly.includes(key)
          ? failWith(u[key], ctx, 'read_only', readOnlyMessage(key))
          : failWith(u[key], ctx, 'unknown_field', refusedHere.get(key) ?? `is not a field of ${name}`);
        if (E.isLeft(failure)) for (const e of failure.left) errors.push(e);
      }
      if (omitted > 0) errors.push(omittedErrors(omitted));
      return errors.length > 0 ? t.failures(errors) : t.success(out as Decoded<R, O>);
    },
    t.identity,
  );
  const fieldCodecs = Object.entries({ ...spec.required, ...spec.optional });
  const accepted = (body: unknown): Readonly<Record<string, unknown>> => {
    const out: Record<string, unknown> = {};
    if (!isPlainObject(body)) return out;
    for (const [field, fieldCodec] of fieldCodecs) {
      const key = names.toWire(field);
      if (!Object.hasOwn(body, key)) continue;
      const r = fieldCodec.decode(body[key]);
      if (E.isRight(r)) out[field] = r.right;
    }
    return out;
  };
  return Object.assign(codec, {
    fieldOf: (key: string) => fieldByKey.get(key),
    names,
    keys: new Set(fieldByKey.keys()),
    accepted,
  });
};

/** Stands for `n` refused keys past the listed ones, at the end of a codec's errors; decodeBody counts it. */
const omittedMarker = 'omitted';
const omittedErrors = (n: number): t.ValidationError => ({ value: n, context: [], message: omittedMarker });
const isOmitted = (e: t.ValidationError): boolean => e.message === omittedMarker && e.context.length === 0;

/**
 * Decodes a request body into a command, or reports every bad field at once (the first
 * maxListedFieldErrors; `omitted` counts the rest) together with the fields of the
 * resource the body named, by their domain names (some rules of the use cases depend on
 * what was left out).
 */
export const decodeBody = <A>(codec: BodyCodec<A>, read: unknown): DecodedBody<A> => {
  // A large body is read only as far as the codec looks; the names it left out are all errors.
  const { value: body, dropped } =
    read instanceof LargeJsonBody ? read.thinned(codec.keys) : { value: read, dropped: 0 };
  const decoded = codec.decode(body);
  if (E.isRight(decoded)) return decoded;
  const listed: t.ValidationError[] = [];
  let omitted = dropped;
  for (const e of decoded.left) {
    if (isOmitted(e)) omitted += e.value as number;
    else listed.push(e);
  }
  const given: string[] = [];
  if (isPlainObject(body))
    for (const key of Object.keys(body)) {
      const field = codec.fieldOf(key);
      if (field !== undefined) given.push(field);
    }
  return E.left({
    errors: toFieldErrors(listed),
    ...(omitted > 0 ? { omitted } : {}),
    given: isPlainObject(body) ? given : null,
    ...(isPlainObject(body) ? { accepted: codec.accepted(body) } : {}),
  });
};
