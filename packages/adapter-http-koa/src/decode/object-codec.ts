import type { DecodedBody } from '@support/application';
import { failWith, toFieldErrors } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
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
  const codec = new t.Type<Decoded<R, O>, unknown, unknown>(
    name,
    (u): u is Decoded<R, O> => isPlainObject(u),
    (u, c) => {
      if (!isPlainObject(u)) return failWith(u, c, 'invalid_type', 'the request body must be a JSON object');
      const errors: t.Errors = [];
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(u)) {
        if (fieldByKey.has(key)) continue;
        const ctx = t.appendContext(c, key, t.unknown, u[key]);
        const failure = spec.readOnly.includes(key)
          ? failWith(u[key], ctx, 'read_only', 'is set by the server and cannot be written here')
          : failWith(u[key], ctx, 'unknown_field', `is not a field of ${name}`);
        if (E.isLeft(failure)) errors.push(...failure.left);
      }
      const decodeField = (field: string, codec: t.Mixed, isRequired: boolean): void => {
        const key = names.toWire(field);
        const present = Object.hasOwn(u, key);
        const ctx = t.appendContext(c, field, codec, u[key]);
        if (!present) {
          if (isRequired) {
            const failure = failWith(undefined, ctx, 'required', 'is required');
            if (E.isLeft(failure)) errors.push(...failure.left);
          }
          return;
        }
        if (u[key] === null && (isRequired || (spec.mergePatch === true && !codec.is(null)))) {
          const failure = failWith(null, ctx, 'required', 'is required and cannot be null');
          if (E.isLeft(failure)) errors.push(...failure.left);
          return;
        }
        const r = codec.validate(u[key], ctx);
        if (E.isLeft(r)) errors.push(...r.left);
        else out[field] = r.right;
      };
      for (const [key, codec] of Object.entries(spec.required)) decodeField(key, codec, true);
      for (const [key, codec] of Object.entries(spec.optional)) decodeField(key, codec, false);
      return errors.length > 0 ? t.failures(errors) : t.success(out as Decoded<R, O>);
    },
    t.identity,
  );
  return Object.assign(codec, { fieldOf: (key: string) => fieldByKey.get(key), names });
};

/**
 * Decodes a request body into a command, or reports every bad field at once together with
 * the fields of the resource the body named, by their domain names (some rules of the use
 * cases depend on what was left out).
 */
export const decodeBody = <A>(codec: BodyCodec<A>, body: unknown): DecodedBody<A> =>
  E.mapLeft((errors: t.Errors) => ({
    errors: toFieldErrors(errors),
    given: isPlainObject(body) ? Object.keys(body).flatMap((key) => codec.fieldOf(key) ?? []) : null,
  }))(codec.decode(body));
