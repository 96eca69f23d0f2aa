import { expect } from 'chai';
import fc from 'fast-check';
import { compareKeys, completeSort, ticketOrder } from '../src/index.js';
import { aTicket, T0 } from '../test-support/mothers.js';
import { ids, rule, rulesArb, sorted } from './support/sorting.js';

describe('sort order', () => {
  describe('completeSort', () => {
    it('ends with the id tie-breaker in the direction of the last rule', () => {
      expect(completeSort([rule('priority', 'desc')])).to.deep.equal([rule('priority', 'desc'), rule('id', 'desc')]);
      expect(completeSort([rule('priority', 'desc'), rule('createdAt')])).to.deep.equal([
        rule('priority', 'desc'),
        rule('createdAt'),
        rule('id'),
      ]);
      expect(completeSort([rule('createdAt'), rule('subject', 'desc')]).at(-1)).to.deep.equal(rule('id', 'desc'));
    });

    it('sorts by id ascending when no rule is given', () => {
      expect(completeSort([])).to.deep.equal([rule('id')]);
    });

    it('stops at an explicit id rule: ids are unique, later rules could never decide', () => {
      expect(completeSort([rule('subject'), rule('id', 'desc'), rule('createdAt')])).to.deep.equal([
        rule('subject'),
        rule('id', 'desc'),
      ]);
    });

    it('always yields exactly one id rule, last', () => {
      fc.assert(
        fc.property(rulesArb, (rules) => {
          const complete = completeSort(rules);
          expect(complete.at(-1)!.field).to.equal('id');
          expect(complete.filter((r) => r.field === 'id')).to.have.length(1);
          const idAt = rules.findIndex((r) => r.field === 'id');
          if (idAt >= 0) expect(complete).to.deep.equal(rules.slice(0, idAt + 1));
          else expect(complete).to.deep.equal([...rules, rule('id', rules.at(-1)?.direction ?? 'asc')]);
        }),
        { numRuns: 200 },
      );
    });
  });

  describe('ticketOrder', () => {
    it('is -created_at (newest first, then highest id) by default', () => {
      expect(ticketOrder([], false)).to.deep.equal([rule('createdAt', 'desc'), rule('id', 'desc')]);
    });

    it('is -closed_at (the latest closed first) by default for the recently closed', () => {
      expect(ticketOrder([], true)).to.deep.equal([rule('closedAt', 'desc'), rule('id', 'desc')]);
    });

    it('takes the rules asked for instead of the default, completed', () => {
      expect(ticketOrder([rule('priority')], true)).to.deep.equal([rule('priority'), rule('id')]);
      expect(ticketOrder([rule('priority', 'desc'), rule('createdAt')], false)).to.deep.equal([
        rule('priority', 'desc'),
        rule('createdAt'),
        rule('id'),
      ]);
    });
  });

  describe('compareKeys', () => {
    it('puts null before any value and finds two nulls equal', () => {
      expect(compareKeys(null, 0)).to.be.lessThan(0);
      expect(compareKeys(T0, null)).to.be.greaterThan(0);
      expect(compareKeys(null, 'a')).to.be.lessThan(0);
      expect(compareKeys(null, null)).to.equal(0);
    });

    it('compares numbers numerically and text by code point', () => {
      expect(compareKeys(9, 10)).to.be.lessThan(0); // not "10" < "9"
      expect(compareKeys('Z', 'a')).to.be.lessThan(0);
      expect(compareKeys('\uFFFF', '𝒜')).to.be.lessThan(0);
    });
  });

  describe('compareTickets', () => {
    it('sorts priority by rank, not by name', () => {
      const ts = (['high', 'urgent', 'low', 'normal'] as const).map((priority, i) => aTicket({ id: i + 1, priority }));
      expect(sorted(ts, completeSort([rule('priority')])).map((t) => t.priority)).to.deep.equal([
        'low',
        'normal',
        'high',
        'urgent',
      ]);
      expect(sorted(ts, completeSort([rule('priority', 'desc')])).map((t) => t.priority)).to.deep.equal([
        'urgent',
        'high',
        'normal',
        'low',
      ]);
    });

    it('sorts state by life cycle: open, pending, closed', () => {
      const ts = (['closed', 'pending', 'open'] as const).map((state, i) => aTicket({ id: i + 1, state }));
      expect(sorted(ts, completeSort([rule('state')])).map((t) => t.state)).to.deep.equal([
        'open',
        'pending',
        'closed',
      ]);
    });

    it('puts tickets without closed_at first ascending and last descending', () => {
      const ts = [
        aTicket({ id: 1, state: 'closed', closedAt: T0 + 2 }),
        aTicket({ id: 2, state: 'open' }),
        aTicket({ id: 3, state: 'closed', closedAt: T0 + 1 }),
      ];
      expect(ids(sorted(ts, completeSort([rule('closedAt')])))).to.deep.equal([2, 3, 1]);
      expect(ids(sorted(ts, completeSort([rule('closedAt', 'desc')])))).to.deep.equal([1, 3, 2]);
    });

    it('sorts subjects by code point', () => {
      const subjects = ['𝒜', 'éclair', 'apple', '\uFFFF', 'Zebra', 'zoo'];
      const ts = subjects.map((subject, i) => aTicket({ id: i + 1, subject }));
      expect(sorted(ts, completeSort([rule('subject')])).map((t) => t.subject)).to.deep.equal([
        'Zebra',
        'apple',
        'zoo',
        'éclair',
        '\uFFFF',
        '𝒜',
      ]);
    });

    it('sorts times numerically', () => {
      const ts = [
        aTicket({ id: 1, createdAt: T0 + 10 }),
        aTicket({ id: 2, createdAt: T0 + 9 }),
        aTicket({ id: 3, createdAt: T0 + 100 }),
      ];
      expect(ids(sorted(ts, completeSort([rule('createdAt')])))).to.deep.equal([2, 1, 3]);
      expect(ids(sorted(ts, completeSort([rule('updatedAt', 'desc')])))).to.deep.equal([3, 1, 2]);
    });

    it('applies rules in order: -priority,created_at puts the older of equally urgent tickets first', () => {
      const ts = [
        aTicket({ id: 1, priority: 'urgent', createdAt: T0 + 5 }),
        aTicket({ id: 2, priority: 'low', createdAt: T0 }),
        aTicket({ id: 3, priority: 'urgent', createdAt: T0 + 1 }),
      ];
      const sort = completeSort([rule('priority', 'desc'), rule('createdAt')]);
      expect(ids(sorted(ts, sort))).to.deep.equal([3, 1, 2]);
    });

    it('breaks ties by id in the direction of the last rule', () => {
      const ts = [3, 1, 2].map((id) => aTicket({ id, priority: 'high', createdAt: T0 }));
      expect(ids(sorted(ts, completeSort([rule('priority', 'desc')])))).to.deep.equal([3, 2, 1]);
      expect(ids(sorted(ts, completeSort([rule('priority')])))).to.deep.equal([1, 2, 3]);
      expect(ids(sorted(ts, completeSort([rule('priority'), rule('createdAt', 'desc')])))).to.deep.equal([3, 2, 1]);
      expect(ids(sorted(ts, completeSort([rule('priority', 'desc'), rule('createdAt')])))).to.deep.equal([1, 2, 3]);
    });
  });
});

describe('compareKeys', () => {
  it('puts null before a number or a text, and orders numbers and texts among themselves', () => {
    expect(compareKeys(null, null)).to.equal(0);
    expect(compareKeys(null, 'a')).to.be.below(0);
    expect(compareKeys('a', null)).to.be.above(0);
    expect(compareKeys(null, 0)).to.be.below(0);
    expect(compareKeys(2, 1)).to.be.above(0);
    expect(compareKeys(1, 2)).to.be.below(0);
    expect(compareKeys('b', 'a')).to.be.above(0);
    expect(compareKeys('a', 'a')).to.equal(0);
  });
});
