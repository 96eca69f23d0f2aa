import { expect } from 'chai';
import { decodePage } from '../../src/decode/page.js';
import { issuePairs, leftOf, rightOf } from '../support/decoding.js';

describe('page query string', () => {
  it('reads page and per_page, 1 and 30 by default', () => {
    expect(rightOf(decodePage({}))).to.deep.equal({ page: 1, perPage: 30 });
    expect(rightOf(decodePage({ page: '3', per_page: '100' }))).to.deep.equal({ page: 3, perPage: 100 });
  });

  it('refuses both at once, naming each value, and a page given twice', () => {
    expect(issuePairs(leftOf(decodePage({ page: '0', per_page: '101' })))).to.deep.equal([
      ['page', '0'],
      ['per_page', '101'],
    ]);
    const twice = leftOf(decodePage({ page: ['1', '2'] }));
    expect(twice.map((i) => i.message)).to.deep.equal(['page must be given once (got 2 values)']);
  });
});
