import { maxListedFieldErrors, validationFailed } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { TicketPatchBody, UserCreateBody } from '../../src/decode/bodies.js';
import { decodeBody } from '../../src/decode/object-codec.js';
import { domainProblem } from '../../src/errors/http-problem.js';
import { problemBody } from '../../src/errors/error-reply.js';

// A body's 422 lists at most 100 errors, and its description says how many more there are
// (contract §11): a body of 100,000 unknown keys builds 100 errors, not 100,000.

const unknownKeys = (n: number): Record<string, number> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`unknown${i}`, i]));

describe('request body codecs: at most 100 errors listed, the rest counted (property)', () => {
  it('for any number of unknown keys beside bad known fields, lists at most 100 and counts every one', () => {
    fc.assert(
      fc.property(fc.nat(1500), fc.boolean(), (n, badKnown) => {
        const body = { ...unknownKeys(n), ...(badKnown ? { subject: 7, tags: 'x' } : {}) };
        const refused = decodeBody(TicketPatchBody, body);
        const expected = n + (badKnown ? 2 : 0);
        if (expected === 0) {
          expect(E.isRight(refused)).to.equal(true);
          return;
        }
        if (E.isRight(refused)) throw new Error('accepted a bad body');
        // What the use cases answer for a refused body (acceptBody).
        const failure = validationFailed(refused.left.errors, refused.left.omitted);
        if (failure._tag !== 'ValidationFailed') throw new Error('not a validation failure');
        const { errors, omitted = 0 } = failure;
        expect(errors.length).to.equal(Math.min(expected, maxListedFieldErrors));
        expect(errors.length + omitted).to.equal(expected);
        const answer = problemBody(domainProblem(failure));
        expect(answer.errors).to.have.length(errors.length);
        expect(answer.description).to.equal(
          omitted === 0
            ? `${expected} ${expected === 1 ? 'field is' : 'fields are'} invalid; see errors`
            : `${expected} fields are invalid; errors lists the first ${maxListedFieldErrors}, and ${omitted} more are not listed`,
        );
      }),
      { numRuns: 60 },
    );
  });

  it("lists the fields' own errors first, so that unknown keys never crowd them out", () => {
    const refused = decodeBody(UserCreateBody, unknownKeys(150));
    if (E.isRight(refused)) throw new Error('accepted a bad body');
    expect(refused.left.errors.slice(0, 3).map((e) => [e.field, e.code])).to.deep.equal([
      ['name', 'required'],
      ['email', 'required'],
      ['password', 'required'],
    ]);
    expect(refused.left.errors).to.have.length(maxListedFieldErrors);
    expect(refused.left.omitted).to.equal(53);
  });

  it('100,000 unknown keys decode in well under a second', () => {
    const body = unknownKeys(100_000);
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const refused = decodeBody(TicketPatchBody, body);
      best = Math.min(best, performance.now() - started);
      expect(E.isLeft(refused) && refused.left.omitted).to.equal(100_000 - maxListedFieldErrors);
    }
    expect(best).to.be.below(1000);
  });
});
