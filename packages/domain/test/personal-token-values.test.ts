import { expect } from 'chai';
import fc from 'fast-check';
import type * as t from 'io-ts';
import { personalTokenValues, scopes, toFieldErrors, type FieldError } from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// What POST /v1/users/me/tokens may carry (contract §8.1): a name of 1-100 characters, a
// non-empty list of scopes, and expires_at as an RFC 3339 date-time, each at and past its bounds.

const { name, scopes: scopeList, expiresAt } = personalTokenValues;
const refusal = <A, O>(codec: t.Type<A, O>, value: unknown): [string, string, string][] =>
  toFieldErrors(leftOf(codec.decode(value))).map((e: FieldError) => [e.field, e.code, e.message]);
const notADateTime = 'must be an RFC 3339 date-time (2026-03-01T00:00:00Z)';

describe('domain: the values of a personal token (contract §8.1)', () => {
  it('a name of 1-100 characters, not blank', () => {
    expect(rightOf(name.decode('x'))).to.equal('x');
    expect(rightOf(name.decode('x'.repeat(100)))).to.have.length(100);
    expect(refusal(name, 'x'.repeat(101))).to.deep.equal([
      ['', 'invalid_length', 'must be 1 to 100 characters long (got 101)'],
    ]);
    expect(refusal(name, '')).to.deep.equal([['', 'invalid_length', 'must be 1 to 100 characters long (got 0)']]);
    expect(refusal(name, ' \t')).to.deep.equal([['', 'invalid_value', 'must not be blank']]);
  });

  it('scopes: a non-empty list of the eight scopes, each kept once in the order given', () => {
    expect(rightOf(scopeList.decode(['users:read']))).to.deep.equal(['users:read']);
    const reversed = [...scopes].reverse();
    expect(rightOf(scopeList.decode(reversed))).to.deep.equal(reversed);
    expect(rightOf(scopeList.decode(['events:read', 'tickets:read', 'events:read']))).to.deep.equal([
      'events:read',
      'tickets:read',
    ]);
    // The bound counts the list as sent, repeats included (contract §11: refused by its length first).
    expect(refusal(scopeList, [...reversed, ...scopes])).to.deep.equal([
      ['', 'invalid_length', 'must hold at most 8 values (got 16)'],
    ]);
    expect(refusal(scopeList, [])).to.deep.equal([['', 'invalid_length', 'must name at least one value']]);
    expect(refusal(scopeList, ['tickets:read', 'tickets:admin'])).to.deep.equal([
      ['1', 'invalid_value', `must be one of: ${scopes.join(', ')}`],
    ]);
    expect(refusal(scopeList, 'tickets:read')).to.deep.equal([
      ['', 'invalid_type', 'must be an array (list of scopes)'],
    ]);
  });

  it('scopes: `is` and `encode` agree with decoding (an empty list is not a list of scopes)', () => {
    expect(scopeList.is(['tickets:read', 'events:read'])).to.equal(true);
    expect(scopeList.is([])).to.equal(false);
    expect(scopeList.is(['tickets:admin'])).to.equal(false);
    expect(scopeList.is('tickets:read')).to.equal(false);
    expect(scopeList.encode(['groups:write'])).to.deep.equal(['groups:write']);
    expect(scopeList.name).to.equal('list of scopes');
  });
});

describe('domain: an RFC 3339 date-time (expires_at)', () => {
  it('is taken with Z or an offset, upper or lower case, with up to 9 digits of fraction, as epoch ms', () => {
    const cases: [string, number][] = [
      ['2026-03-01T00:00:00Z', Date.UTC(2026, 2, 1)],
      ['2026-03-01t00:00:00z', Date.UTC(2026, 2, 1)],
      ['2026-03-01T02:00:00+02:00', Date.UTC(2026, 2, 1)],
      ['2026-02-28T18:30:00-05:30', Date.UTC(2026, 2, 1)],
      ['2026-03-01T00:00:00-00:00', Date.UTC(2026, 2, 1)],
      ['2026-03-01T00:00:00.5Z', Date.UTC(2026, 2, 1, 0, 0, 0, 500)],
      ['2026-03-01T00:00:00.123456789Z', Date.UTC(2026, 2, 1, 0, 0, 0, 123)],
      ['2026-03-01T23:59:59+23:59', Date.UTC(2026, 2, 1, 0, 0, 59)],
      ['2028-02-29T12:00:00Z', Date.UTC(2028, 1, 29, 12)],
      ['2026-12-31T23:59:59.999Z', Date.UTC(2026, 11, 31, 23, 59, 59, 999)],
    ];
    for (const [text, ms] of cases) expect(rightOf(expiresAt.decode(text)), text).to.equal(ms);
  });

  it('refuses a day the month lacks and the hour 24, which Date.parse would roll over into the next day', () => {
    for (const text of [
      '2026-02-29T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2100-02-29T00:00:00Z',
      '2026-03-01T24:00:00Z',
      '2026-03-01T24:00:00+01:00',
      '2026-02-29T01:00:00+02:00',
    ])
      expect(refusal(expiresAt, text), text).to.deep.equal([['', 'invalid_value', notADateTime]]);
    expect(rightOf(expiresAt.decode('2000-02-29T00:00:00Z')), 'a leap year').to.equal(Date.UTC(2000, 1, 29));
  });

  it('takes the last day of every month and refuses the day after it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 2400 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
        const day = (d: number): string =>
          `${String(year)}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}T00:00:00Z`;
        expect(rightOf(expiresAt.decode(day(last)))).to.equal(Date.UTC(year, month - 1, last));
        expect(refusal(expiresAt, day(last + 1))).to.deep.equal([['', 'invalid_value', notADateTime]]);
      }),
    );
  });

  it('refuses what is not an RFC 3339 date-time, even where Date.parse takes it', () => {
    for (const text of [
      '2026-03-01',
      '2026-03-01T00:00:00',
      '2026-03-01 00:00:00Z',
      'March 1, 2026',
      '+002026-03-01T00:00:00Z',
      '2026-03-01T00:00:00+0200',
      '2026-03-01T00:00:00+02',
      '2026-03-01T00:00:00.Z',
      '2026-03-01T00:00:00.1234567891Z',
      '2026-03-01T00:00:00 02:00',
      '2026-3-01T00:00:00Z',
      '2026-03-01T00:00:00Zjunk',
      '2026-13-01T00:00:00Z',
      '2026-03-01T23:60:00Z',
      '2026-03-01T00:00:00+02:60',
      '',
    ])
      expect(refusal(expiresAt, text), text).to.deep.equal([['', 'invalid_value', notADateTime]]);
    for (const value of [1772323200000, null, ['2026-03-01T00:00:00Z']])
      expect(refusal(expiresAt, value), String(value)).to.deep.equal([
        ['', 'invalid_type', 'must be an RFC 3339 date-time string'],
      ]);
  });

  it('encodes an instant as a date-time that decodes back to it; `is` holds of instants, not of text', () => {
    fc.assert(
      // Years 0000 to 9999: what four digits of year can say.
      fc.property(
        fc.integer({ min: Date.parse('0000-01-01T00:00:00Z'), max: Date.parse('9999-12-31T23:59:59.999Z') }),
        (ms) => {
          const text = expiresAt.encode(ms);
          expect(rightOf(expiresAt.decode(text))).to.equal(ms);
          expect(expiresAt.is(ms)).to.equal(true);
          expect(expiresAt.is(text)).to.equal(false);
        },
      ),
    );
    expect(expiresAt.encode(Date.UTC(2026, 2, 1))).to.equal('2026-03-01T00:00:00.000Z');
    expect(expiresAt.name).to.equal('an RFC 3339 date-time');
  });
});
