import { expect } from 'chai';
import fc from 'fast-check';
import type * as t from 'io-ts';
import {
  groupValues,
  limits,
  messageValues,
  personalTokenLimits,
  personalTokenValues,
  ticketValues,
  toFieldErrors,
  userValues,
  webhookValues,
  type FieldError,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// Every bounded text value (contract §4, §8.1) at each of its bounds and one past it, counted in
// characters (code points: an emoji is one), and named by the rule it enforces, from the same
// numbers: a client reading a codec's name learns the bounds that codec applies.

interface Bounded {
  readonly what: string;
  readonly codec: t.Type<string, string>;
  readonly min: number;
  readonly max: number;
  readonly nonBlank: boolean;
  readonly noun?: string;
}

const bounded: readonly Bounded[] = [
  { what: 'ticket subject', codec: ticketValues.subject, ...limits.subject, nonBlank: true },
  { what: 'ticket summary', codec: ticketValues.summary, ...limits.summary, nonBlank: false },
  { what: 'message body', codec: messageValues.body, ...limits.body, nonBlank: true },
  { what: 'user name', codec: userValues.name, ...limits.name, nonBlank: true },
  { what: 'password', codec: userValues.password, ...limits.password, nonBlank: false },
  { what: 'group name', codec: groupValues.name, ...limits.groupName, nonBlank: true },
  { what: 'group description', codec: groupValues.description, ...limits.description, nonBlank: false },
  { what: 'webhook description', codec: webhookValues.description, ...limits.description, nonBlank: false },
  { what: 'token name', codec: personalTokenValues.name, ...personalTokenLimits.name, nonBlank: true },
];

const refusal = <A, O>(codec: t.Type<A, O>, value: unknown): [string, string][] =>
  toFieldErrors(leftOf(codec.decode(value))).map((e: FieldError) => [e.code, e.message]);
const lengthRefusal = ({ min, max }: Bounded, n: number): [string, string][] => [
  [
    'invalid_length',
    `must be ${min === 0 ? `at most ${String(max)}` : `${String(min)} to ${String(max)}`} characters long (got ${String(n)})`,
  ],
];
/** `n` characters, each one code point of any plane (astral ones are two UTF-16 units). */
const textOf = (n: number): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom('a', 'Z', '7', 'é', '漢', '😀', '𝔸', '-'), { minLength: n, maxLength: n })
    .map((cs) => cs.join(''));

describe('domain: every bounded text value, at and past its bounds', () => {
  for (const b of bounded) {
    it(`${b.what}: ${String(b.min)}-${String(b.max)} characters${b.nonBlank ? ', not blank' : ''}`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom(b.min, b.max).chain((n) => textOf(n)),
          (text) => {
            expect(rightOf(b.codec.decode(text))).to.equal(text);
            expect(b.codec.is(text)).to.equal(true);
          },
        ),
        { numRuns: 10 },
      );
      for (const n of b.min > 0 ? [b.min - 1, b.max + 1] : [b.max + 1]) {
        const text = '😀'.repeat(n);
        expect(refusal(b.codec, text), `${String(n)} characters`).to.deep.equal(lengthRefusal(b, n));
        expect(b.codec.is(text)).to.equal(false);
      }
      const blank = ' '.repeat(Math.max(b.min, 1));
      if (b.nonBlank) expect(refusal(b.codec, blank)).to.deep.equal([['invalid_value', 'must not be blank']]);
      else expect(rightOf(b.codec.decode(blank))).to.equal(blank);
      expect(refusal(b.codec, 12)).to.deep.equal([['invalid_type', 'must be a string']]);
      expect(b.codec.name).to.equal(`string of ${String(b.min)}-${String(b.max)} characters`);
    });
  }

  it('a tag: 1-50 characters, not blank, named so', () => {
    const tag = (n: number): string => '😀'.repeat(n);
    expect(rightOf(ticketValues.tags.decode([tag(1), tag(50)]))).to.deep.equal([tag(1), tag(50)]);
    expect(refusal(ticketValues.tags, [''])).to.deep.equal([
      ['invalid_length', 'must be 1 to 50 characters long (got 0)'],
    ]);
    expect(refusal(ticketValues.tags, [tag(51)])).to.deep.equal([
      ['invalid_length', 'must be 1 to 50 characters long (got 51)'],
    ]);
    expect(ticketValues.tags.is([tag(50)])).to.equal(true);
    expect(ticketValues.tags.is([tag(51)])).to.equal(false);
    expect(ticketValues.tags.is([' '])).to.equal(true);
    expect(ticketValues.tags.name).to.equal('list of tags');
  });

  it('a webhook URL: one character is long enough to be judged as a URL, 2048 is the most', () => {
    expect(refusal(webhookValues.url, 'a')).to.deep.equal([['invalid_value', 'must be an absolute URL']]);
    expect(refusal(webhookValues.url, '')).to.deep.equal([['invalid_length', 'must be 1 to 2048 characters long']]);
    const base = 'https://example.com/';
    const url = (n: number): string => base + 'x'.repeat(n - base.length);
    expect(rightOf(webhookValues.url.decode(url(limits.webhookUrl.max)))).to.have.length(2048);
    expect(refusal(webhookValues.url, url(limits.webhookUrl.max + 1))).to.deep.equal([
      ['invalid_length', 'must be 1 to 2048 characters long'],
    ]);
  });
});
