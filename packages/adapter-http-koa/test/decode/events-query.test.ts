import { expect } from 'chai';
import { decodeEventsQuery } from '../../src/decode/events-query.js';
import { issuePairs, leftOf, rightOf } from '../support/decoding.js';

describe('change feed query string', () => {
  it('reads after, per_page and wait: 0, 30 and 0 by default', () => {
    expect(rightOf(decodeEventsQuery({}))).to.deep.equal({ after: 0, perPage: 30, waitSeconds: 0 });
    expect(
      rightOf(decodeEventsQuery({ after: '9007199254740991', per_page: '100', wait: '30', page: 'ignored' })),
    ).to.deep.equal({
      after: Number.MAX_SAFE_INTEGER,
      perPage: 100,
      waitSeconds: 30,
    });
    expect(rightOf(decodeEventsQuery({ after: '0', per_page: '1', wait: '0' }))).to.deep.equal({
      after: 0,
      perPage: 1,
      waitSeconds: 0,
    });
  });

  it('refuses every bad parameter at once, naming the value sent', () => {
    expect(issuePairs(leftOf(decodeEventsQuery({ after: '-1', per_page: '0', wait: '31' })))).to.deep.equal([
      ['after', '-1'],
      ['per_page', '0'],
      ['wait', '31'],
    ]);
    for (const after of ['', 'abc', '1.0', '1e3', '007', '+1', ' 1', '9007199254740992']) {
      expect(issuePairs(leftOf(decodeEventsQuery({ after }))), JSON.stringify(after)).to.deep.equal([['after', after]]);
    }
    const twice = leftOf(decodeEventsQuery({ wait: ['1', '2'] }));
    expect(twice.map((i) => i.message)).to.deep.equal(['wait must be given once (got 2 values)']);
    expect(leftOf(decodeEventsQuery({ per_page: '101' }))[0]?.message).to.equal(
      'per_page must be an integer from 1 to 100 (got "101")',
    );
  });
});
