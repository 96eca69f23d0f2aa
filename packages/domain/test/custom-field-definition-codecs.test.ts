import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { fieldTypes, ticketFieldValues as v, toFieldErrors, type FieldError } from '../src/index.js';

// The rule for each writable member of a custom field's definition (contract §10): each
// member's codec at and one past each bound, with the field errors a client is answered with.

const errorsOf = (codec: t.Decoder<unknown, unknown>, u: unknown): FieldError[] => {
  const r = codec.decode(u);
  return E.isLeft(r) ? toFieldErrors(r.left) : [];
};
const accepts = (codec: t.Decoder<unknown, unknown>, u: unknown): boolean => E.isRight(codec.decode(u));
const err = (field: string, code: FieldError['code'], message: string): FieldError => ({ field, code, message });

describe('custom field definitions: the members a body may give (contract §10)', () => {
  describe('key: 1-64 characters of [a-z][a-z0-9_]*', () => {
    it('takes 1 and 64 characters, refuses 0 and 65 by length', () => {
      expect(v.key.decode('a')).to.deep.equal(E.right('a'));
      expect(accepts(v.key, 'k'.repeat(64))).to.equal(true);
      expect(errorsOf(v.key, 'k'.repeat(65))).to.deep.equal([
        err('', 'invalid_length', 'must be 1 to 64 characters long (got 65)'),
      ]);
      expect(errorsOf(v.key, '')).to.deep.equal([err('', 'invalid_length', 'must be 1 to 64 characters long (got 0)')]);
    });
    it('refuses other characters and other types', () => {
      const shape = err('', 'invalid_value', 'must start with a lower-case letter and hold only a-z, 0-9 and _');
      for (const bad of ['Order', '1st', 'order-no', 'é']) expect(errorsOf(v.key, bad), bad).to.deep.equal([shape]);
      expect(errorsOf(v.key, 12)).to.deep.equal([err('', 'invalid_type', 'must be a string')]);
      expect(errorsOf(v.key, null)).to.deep.equal([err('', 'invalid_type', 'must be a string')]);
    });
    it('is() agrees with decode', () => {
      for (const u of ['a', 'k'.repeat(64), 'k'.repeat(65), 'A', '', 5, null])
        expect(v.key.is(u), String(u)).to.equal(accepts(v.key, u));
      expect(v.key.name).to.equal('key of 1-64 characters [a-z][a-z0-9_]*');
    });
  });

  describe('title, description, pattern: bounded text', () => {
    it('title: 1-200 characters, not blank', () => {
      expect(accepts(v.title, 't'.repeat(200))).to.equal(true);
      expect(errorsOf(v.title, 't'.repeat(201))).to.deep.equal([
        err('', 'invalid_length', 'must be 1 to 200 characters long (got 201)'),
      ]);
      expect(errorsOf(v.title, '')).to.deep.equal([
        err('', 'invalid_length', 'must be 1 to 200 characters long (got 0)'),
      ]);
      expect(errorsOf(v.title, '  ')).to.deep.equal([err('', 'invalid_value', 'must not be blank')]);
    });
    it('description: 0-1000 characters', () => {
      expect(accepts(v.description, '')).to.equal(true);
      expect(accepts(v.description, 'd'.repeat(1000))).to.equal(true);
      expect(errorsOf(v.description, 'd'.repeat(1001))).to.deep.equal([
        err('', 'invalid_length', 'must be at most 1000 characters long (got 1001)'),
      ]);
    });
    it('pattern: 1-1000 characters', () => {
      expect(accepts(v.pattern, 'p'.repeat(1000))).to.equal(true);
      expect(errorsOf(v.pattern, '')).to.deep.equal([
        err('', 'invalid_length', 'must be 1 to 1000 characters long (got 0)'),
      ]);
      expect(errorsOf(v.pattern, 'p'.repeat(1001))).to.deep.equal([
        err('', 'invalid_length', 'must be 1 to 1000 characters long (got 1001)'),
      ]);
    });
  });

  it('each codec names the rule it applies', () => {
    expect(Object.fromEntries(Object.entries(v).map(([member, codec]) => [member, codec.name]))).to.deep.equal({
      key: 'key of 1-64 characters [a-z][a-z0-9_]*',
      title: 'string of 1-200 characters',
      type: 'field type',
      description: 'string of 0-1000 characters',
      options: 'list of options {value, title}',
      pattern: 'RE2 pattern of 1-1000 characters',
      required: 'boolean',
      customerVisible: 'boolean',
      customerEditable: 'boolean',
      position: 'integer 0-1000000',
    });
  });

  describe('type', () => {
    it('is one of the nine types', () => {
      for (const type of [
        'text',
        'textarea',
        'integer',
        'decimal',
        'date',
        'checkbox',
        'dropdown',
        'multiselect',
        'regexp',
      ])
        expect(v.type.decode(type), type).to.deep.equal(E.right(type));
      const listed = 'must be one of: text, textarea, integer, decimal, date, checkbox, dropdown, multiselect, regexp';
      expect(errorsOf(v.type, 'number')).to.deep.equal([err('', 'invalid_value', listed)]);
      expect(errorsOf(v.type, '')).to.deep.equal([err('', 'invalid_value', listed)]);
      expect(errorsOf(v.type, 1)).to.deep.equal([err('', 'invalid_type', listed)]);
      expect(fieldTypes).to.have.length(9);
    });
  });

  describe('required, customer_visible, customer_editable', () => {
    it('are booleans', () => {
      for (const codec of [v.required, v.customerVisible, v.customerEditable]) {
        expect([accepts(codec, true), accepts(codec, false)]).to.deep.equal([true, true]);
        expect(errorsOf(codec, 'true')).to.deep.equal([err('', 'invalid_type', 'must be true or false')]);
      }
    });
  });

  describe('position: an integer 0-1000000', () => {
    it('takes both bounds and refuses one past each, fractions and other types', () => {
      for (const ok of [0, 1, 1_000_000]) expect(v.position.decode(ok)).to.deep.equal(E.right(ok));
      const shape = [err('', 'invalid_type', 'must be an integer from 0 to 1000000')];
      for (const bad of [-1, 1_000_001, 1.5, Number.NaN, '1', null])
        expect(errorsOf(v.position, bad), String(bad)).to.deep.equal(shape);
    });
    it('is() agrees with decode', () => {
      fc.assert(
        fc.property(
          fc.oneof(fc.integer({ min: -5, max: 1_000_005 }), fc.double(), fc.constant(1_000_000), fc.string()),
          (u) => v.position.is(u) === accepts(v.position, u),
        ),
      );
      expect([v.position.is(0), v.position.is(1_000_000), v.position.is(-1), v.position.is(1_000_001)]).to.deep.equal([
        true,
        true,
        false,
        false,
      ]);
      expect(v.position.is(2.5)).to.equal(false);
      expect(v.position.name).to.equal('integer 0-1000000');
    });
  });

  describe('options: [{value, title}], at most 500', () => {
    it('a title left out is the value', () => {
      expect(v.options.decode([{ value: 'gold' }, { value: 'pro', title: 'Pro plan' }])).to.deep.equal(
        E.right([
          { value: 'gold', title: 'gold' },
          { value: 'pro', title: 'Pro plan' },
        ]),
      );
      expect(v.options.decode([])).to.deep.equal(E.right([]));
    });
    it('a null title is refused, as the document says a string (a schema-invalid body is never taken)', () => {
      expect(errorsOf(v.options, [{ value: 'gold' }, { value: 'free', title: null }])).to.deep.equal([
        err('1.title', 'invalid_type', 'must be a string'),
      ]);
    });
    it('500 options pass; 501 are refused by their number before any is read', () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `o${String(i)}` }));
      expect(E.isRight(v.options.decode(many(500)))).to.equal(true);
      expect(errorsOf(v.options, many(501))).to.deep.equal([
        err('', 'invalid_length', 'must hold at most 500 options (got 501)'),
      ]);
      expect(errorsOf(v.options, Array(501).fill(null))).to.deep.equal([
        err('', 'invalid_length', 'must hold at most 500 options (got 501)'),
      ]);
    });
    it('not a list: invalid_type', () => {
      for (const bad of ['gold', { value: 'gold' }, null])
        expect(errorsOf(v.options, bad)).to.deep.equal([err('', 'invalid_type', 'must be an array of {value, title}')]);
      expect([v.options.is([]), v.options.is('x'), v.options.is({})]).to.deep.equal([true, false, false]);
    });
    it('names each bad option by its index, and every fault of one', () => {
      const object = 'must be an object {value, title}';
      expect(errorsOf(v.options, [null, ['a'], 'a', 7])).to.deep.equal([
        err('0', 'invalid_type', object),
        err('1', 'invalid_type', object),
        err('2', 'invalid_type', object),
        err('3', 'invalid_type', object),
      ]);
      expect(errorsOf(v.options, [{ value: 'a', colour: 'red', id: 1 }])).to.deep.equal([
        err('0.colour', 'unknown_field', 'is not a member of an option'),
        err('0.id', 'unknown_field', 'is not a member of an option'),
      ]);
      expect(errorsOf(v.options, [{ value: 'ok' }, { title: 'T' }, { value: 'x', title: 5 }])).to.deep.equal([
        err('1.value', 'invalid_type', 'must be a string'),
        err('2.title', 'invalid_type', 'must be a string'),
      ]);
      expect(errorsOf(v.options, [{ value: '', title: '' }])).to.deep.equal([
        err('0.value', 'invalid_length', 'must be 1 to 64 characters long (got 0)'),
        err('0.title', 'invalid_length', 'must be 1 to 200 characters long (got 0)'),
      ]);
    });
    it('a value is 1-64 characters and not blank; a title 1-200', () => {
      expect(accepts(v.options, [{ value: 'v'.repeat(64), title: 't'.repeat(200) }])).to.equal(true);
      expect(errorsOf(v.options, [{ value: 'v'.repeat(65), title: 't'.repeat(201) }])).to.deep.equal([
        err('0.value', 'invalid_length', 'must be 1 to 64 characters long (got 65)'),
        err('0.title', 'invalid_length', 'must be 1 to 200 characters long (got 201)'),
      ]);
      expect(errorsOf(v.options, [{ value: ' ', title: ' ' }])).to.deep.equal([
        err('0.value', 'invalid_value', 'must not be blank'),
        err('0.title', 'invalid_value', 'must not be blank'),
      ]);
    });
    it('"none" and a comma cannot be values: a query reads them', () => {
      expect(errorsOf(v.options, [{ value: 'none' }])).to.deep.equal([
        err('0.value', 'invalid_value', '"none" is reserved (cf.<key>=none lists tickets without a value)'),
      ]);
      expect(
        errorsOf(v.options, [
          { value: 'a', title: 'A' },
          { value: 'a,b', title: 'A or B' },
        ]),
      ).to.deep.equal([
        err('1.value', 'invalid_value', 'must not contain a comma (a comma separates the values of a query)'),
      ]);
      expect(errorsOf(v.options, [{ value: 'none', title: '' }])).to.deep.equal([
        err('0.title', 'invalid_length', 'must be 1 to 200 characters long (got 0)'),
        err('0.value', 'invalid_value', '"none" is reserved (cf.<key>=none lists tickets without a value)'),
      ]);
      expect(accepts(v.options, [{ value: 'None' }, { value: 'nones' }, { value: 'a;b' }])).to.equal(true);
    });
    it('property: any list of well-formed options is kept in order, titles defaulting to values', () => {
      const value = fc.stringMatching(/^[a-z0-9 _-]{1,10}$/).filter((s) => s.trim() !== '' && s !== 'none');
      fc.assert(
        fc.property(
          fc.array(fc.record({ value, title: fc.option(fc.stringMatching(/^[A-Z][a-z]{0,8}$/), { nil: undefined }) }), {
            maxLength: 8,
          }),
          (opts) => {
            const r = v.options.decode(opts);
            const expected = opts.map((o) => ({ value: o.value, title: o.title ?? o.value }));
            return E.isRight(r) && JSON.stringify(r.right) === JSON.stringify(expected);
          },
        ),
      );
    });
  });
});
