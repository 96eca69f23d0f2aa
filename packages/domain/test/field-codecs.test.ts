import { expect } from 'chai';
import * as t from 'io-ts';
import {
  booleanField,
  boundedString,
  distinctList,
  failWith,
  nullable,
  oneOf,
  reference,
  toFieldErrors,
  UserId,
  type FieldError,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// The building blocks of every value rule: each refusal carries its field-error code and the
// sentence a client reads, and `is` agrees with `decode`.

const errorsOf = <A, O>(codec: t.Type<A, O>, value: unknown): FieldError[] =>
  toFieldErrors(leftOf(codec.decode(value)));
const oneError = <A, O>(codec: t.Type<A, O>, value: unknown): FieldError => {
  const errors = errorsOf(codec, value);
  expect(errors).to.have.length(1);
  return errors[0]!;
};

describe('domain: field errors from io-ts (toFieldErrors)', () => {
  const Body = t.type({ name: boundedString('name', { min: 1, max: 3 }), tags: t.array(t.string) });

  it('keep the code and the message a codec failed with, under the dotted path of the field', () => {
    expect(errorsOf(Body, { name: 'long name', tags: [] })).to.deep.equal([
      { field: 'name', code: 'invalid_length', message: 'must be 1 to 3 characters long (got 9)' },
    ]);
  });

  it('name a missing field "required" and a plain io-ts type error by the type expected', () => {
    expect(errorsOf(t.type({ name: t.string, tags: t.array(t.string) }), { tags: ['a', 2] })).to.deep.equal([
      { field: 'name', code: 'required', message: 'is required' },
      { field: 'tags.1', code: 'invalid_type', message: 'must be string' },
    ]);
  });

  it('name the value itself "" and fall back to the plain form for a message that is no code', () => {
    const plain = (message: string): FieldError[] =>
      toFieldErrors([{ value: 5, context: [{ key: '', type: t.string, actual: 5 }], message }]);
    expect(plain('invalid_value|a coded message')).to.deep.equal([
      { field: '', code: 'invalid_value', message: 'a coded message' },
    ]);
    expect(plain('no_such_code|x')).to.deep.equal([{ field: '', code: 'invalid_type', message: 'must be string' }]);
    expect(plain('|invalid_value')).to.deep.equal([{ field: '', code: 'invalid_type', message: 'must be string' }]);
    expect(toFieldErrors([{ value: 5, context: [] }])).to.deep.equal([
      { field: '', code: 'invalid_type', message: 'must be a valid value' },
    ]);
  });

  it('know every field-error code a codec may fail with', () => {
    const codes = [
      'required',
      'unknown_field',
      'read_only',
      'invalid_type',
      'invalid_length',
      'invalid_value',
      'not_unique',
      'invalid_transition',
      'unknown_reference',
      'not_permitted',
    ] as const;
    for (const code of codes) {
      const failing = new t.Type<never, never, unknown>(
        'x',
        (_): _ is never => false,
        (u, c) => failWith(u, c, code, 'because'),
        t.identity,
      );
      expect(oneError(failing, 1)).to.deep.equal({ field: '', code, message: 'because' });
    }
  });
});

describe('domain: bounded strings', () => {
  const subject = boundedString('subject', { min: 2, max: 4, nonBlank: true });
  const summary = boundedString('summary', { min: 0, max: 3 });

  it('accept the bounds themselves, counting code points (an emoji is one character)', () => {
    for (const ok of ['ab', 'abcd', '😀😀', '😀😀😀😀']) {
      expect(rightOf(subject.decode(ok))).to.equal(ok);
      expect(subject.is(ok)).to.equal(true);
    }
    expect(rightOf(summary.decode(''))).to.equal('');
    expect(subject.encode('abc')).to.equal('abc');
    expect(subject.name).to.equal('subject');
  });

  it('refuse one past each bound, saying the bounds and the length given', () => {
    expect(oneError(subject, 'a')).to.deep.equal({
      field: '',
      code: 'invalid_length',
      message: 'must be 2 to 4 characters long (got 1)',
    });
    expect(oneError(subject, 'abcde')).to.deep.equal({
      field: '',
      code: 'invalid_length',
      message: 'must be 2 to 4 characters long (got 5)',
    });
    expect(oneError(summary, 'abcd')).to.deep.equal({
      field: '',
      code: 'invalid_length',
      message: 'must be at most 3 characters long (got 4)',
    });
    expect(subject.is('a')).to.equal(false);
    expect(subject.is('abcde')).to.equal(false);
    expect(summary.is('abcd')).to.equal(false);
  });

  it('refuse what is not a string, and a lone UTF-16 surrogate', () => {
    expect(oneError(subject, 12)).to.deep.equal({ field: '', code: 'invalid_type', message: 'must be a string' });
    expect(subject.is(12)).to.equal(false);
    expect(oneError(subject, 'a\ud800b')).to.deep.equal({
      field: '',
      code: 'invalid_value',
      message: 'must be Unicode text: it holds a UTF-16 surrogate without its pair',
    });
    expect(subject.is('a\ud800b')).to.equal(false);
  });

  it('refuse white space only when asked to', () => {
    expect(oneError(subject, ' \t ')).to.deep.equal({ field: '', code: 'invalid_value', message: 'must not be blank' });
    expect(rightOf(summary.decode('  '))).to.equal('  ');
    expect(rightOf(subject.decode(' a '))).to.equal(' a ');
  });
});

describe('domain: one of a set of words', () => {
  const colour = oneOf('colour', ['red', 'green']);

  it('accept the set, refuse another word as a value and anything else as a type, naming the set', () => {
    expect(rightOf(colour.decode('green'))).to.equal('green');
    expect(colour.is('red')).to.equal(true);
    expect(colour.is('blue')).to.equal(false);
    expect(colour.is(1)).to.equal(false);
    expect(oneError(colour, 'blue')).to.deep.equal({
      field: '',
      code: 'invalid_value',
      message: 'must be one of: red, green',
    });
    expect(oneError(colour, 1)).to.deep.equal({
      field: '',
      code: 'invalid_type',
      message: 'must be one of: red, green',
    });
  });
});

describe('domain: booleans', () => {
  it('accept true and false only', () => {
    expect(rightOf(booleanField.decode(false))).to.equal(false);
    expect(booleanField.is(true)).to.equal(true);
    expect(booleanField.is('true')).to.equal(false);
    expect(oneError(booleanField, 'true')).to.deep.equal({
      field: '',
      code: 'invalid_type',
      message: 'must be true or false',
    });
  });
});

describe('domain: references by id', () => {
  const user = reference(UserId, 'a user');

  it('accept a positive integer as the branded id, refuse anything else naming the resource', () => {
    expect(rightOf(user.decode(7))).to.equal(7);
    expect(user.name).to.equal('UserId');
    expect(user.is(7)).to.equal(true);
    expect(user.encode(7 as UserId)).to.equal(7);
    for (const bad of [0, -1, 1.5, '7', null]) {
      expect(oneError(user, bad)).to.deep.equal({
        field: '',
        code: 'invalid_type',
        message: 'must be the integer id of a user',
      });
      expect(user.is(bad)).to.equal(false);
    }
  });
});

describe('domain: nullable values', () => {
  const maybeUser = nullable(reference(UserId, 'a user'));

  it('accept null or the value, and refuse as the value does', () => {
    expect(rightOf(maybeUser.decode(null))).to.equal(null);
    expect(rightOf(maybeUser.decode(3))).to.equal(3);
    expect(maybeUser.name).to.equal('UserId | null');
    expect(maybeUser.is(null)).to.equal(true);
    expect(maybeUser.is(3)).to.equal(true);
    expect(maybeUser.is('3')).to.equal(false);
    expect(maybeUser.encode(null)).to.equal(null);
    expect(maybeUser.encode(3 as UserId)).to.equal(3);
    expect(oneError(maybeUser, 'x').code).to.equal('invalid_type');
  });
});

describe('domain: lists of distinct values', () => {
  const tags = distinctList('list of tags', boundedString('tag', { min: 1, max: 3 }), 2);

  it('refuse a list longer than its bound by its length, before any item is read', () => {
    expect(oneError(tags, ['a', 'b', 'c'])).to.deep.equal({
      field: '',
      code: 'invalid_length',
      message: 'must hold at most 2 values (got 3)',
    });
    // Repeats count: a list is judged by its length, not by what is left after dropping them.
    expect(oneError(tags, ['a', 'a', 'a'])).to.deep.equal({
      field: '',
      code: 'invalid_length',
      message: 'must hold at most 2 values (got 3)',
    });
    // The bad items of an over-long list are not even looked at: one error, for the list.
    expect(errorsOf(tags, [7, 8, 9])).to.deep.equal([
      { field: '', code: 'invalid_length', message: 'must hold at most 2 values (got 3)' },
    ]);
    expect(tags.is(['a', 'b', 'c'])).to.equal(false);
  });

  it('drop repeats within the bound (the first kept)', () => {
    expect(rightOf(tags.decode(['b', 'b']))).to.deep.equal(['b']);
    expect(rightOf(tags.decode(['b', 'a']))).to.deep.equal(['b', 'a']);
    expect(rightOf(tags.decode([]))).to.deep.equal([]);
  });

  it('refuse every bad item at once, each under its index', () => {
    expect(errorsOf(tags, [7, 'toolong'])).to.deep.equal([
      { field: '0', code: 'invalid_type', message: 'must be a string' },
      { field: '1', code: 'invalid_length', message: 'must be 1 to 3 characters long (got 7)' },
    ]);
  });

  it('refuse what is not an array, naming the list', () => {
    expect(oneError(tags, 'a')).to.deep.equal({
      field: '',
      code: 'invalid_type',
      message: 'must be an array (list of tags)',
    });
  });

  it('agree with decode in `is`, and encode item by item', () => {
    expect(tags.is(['a'])).to.equal(true);
    expect(tags.is(['a', 7])).to.equal(false);
    expect(tags.is('a')).to.equal(false);
    expect(tags.encode(['a', 'b'])).to.deep.equal(['a', 'b']);
    expect(tags.name).to.equal('list of tags');
  });
});
