import { compareText, ticketOrder, type SortField } from '@support/domain';
import { expect } from 'chai';
import { find } from 'mingo';
import { sortFieldPaths } from '../src/ticket-query.js';
import { bsonCompare, mongoSort } from './support/mongo-order.js';
import { asDocs, docs, rulesOf, sortParams, tickets } from './support/cross-check-shapes.js';

// The sort order the cross-check (cross-check.test.ts) compares with: MongoDB's (support/mongo-order.ts).

describe('the sort order the cross-check uses is MongoDB’s, not mingo’s', () => {
  it('orders null before numbers before strings before Dates; strings by UTF-8 bytes', () => {
    expect(bsonCompare(null, 0)).to.be.below(0);
    expect(bsonCompare(0, '')).to.be.below(0);
    expect(bsonCompare('z', new Date(0))).to.be.below(0);
    expect(bsonCompare('Z', 'a')).to.be.below(0);
    expect(bsonCompare('z', 'é')).to.be.below(0);
    expect(bsonCompare('\uFFFD', '\u{1F600}')).to.be.below(0);
    expect(bsonCompare(new Date(1), new Date(2))).to.be.below(0);
    expect(bsonCompare(null, undefined)).to.equal(0);
  });

  it('agrees with the domain’s compareText on every pair of fixture subjects', () => {
    const subjects = [...new Set(tickets.map((t) => t.subject))];
    for (const a of subjects)
      for (const b of subjects)
        expect(Math.sign(bsonCompare(a, b)), `${a} vs ${b}`).to.equal(Math.sign(compareText(a, b)));
  });

  it('pins the mingo quirk: mingo puts "\\u{1F600}" before "\\uFFFD" (UTF-16), MongoDB after (UTF-8)', () => {
    const pair = [
      { _id: 1, s: '\uFFFD' },
      { _id: 2, s: '\u{1F600}' },
    ];
    expect(
      find(pair, {})
        .sort({ s: 1 })
        .all()
        .map((d) => (d as { _id: number })._id),
    ).to.deep.equal([2, 1]);
    expect(mongoSort(pair, { s: 1 }).map((d) => d._id)).to.deep.equal([1, 2]);
  });

  it('where strings stay in the Basic Multilingual Plane, mingo’s own sort agrees on every sort of the cross-check', () => {
    const bmp = docs.filter((d) => !/[\uD800-\uDFFF]/.test(d.subject));
    for (const sortParam of sortParams) {
      const sort = Object.fromEntries(
        ticketOrder(rulesOf(sortParam), false).map(
          (r) => [sortFieldPaths[r.field as SortField], r.direction === 'asc' ? 1 : -1] as const,
        ),
      );
      const byMingo = find(asDocs(bmp), {})
        .sort(sort)
        .all()
        .map((d) => d['_id']);
      expect(byMingo, String(sortParam)).to.deep.equal(mongoSort(bmp, sort).map((d) => d._id));
    }
  });
});
