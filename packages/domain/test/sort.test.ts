import { expect } from 'chai';
import fc from 'fast-check';
import {
  compareKeys,
  compareTickets,
  completeSort,
  sortFields,
  ticketOrder,
  type Priority,
  type SortField,
  type SortRule,
  type Ticket,
  type TicketState,
} from '../src/index.js';
import { aTicket, T0 } from '../test-support/mothers.js';

const sign = (n: number): number => Math.sign(n) || 0;
const ids = (ts: readonly Ticket[]): number[] => ts.map((t) => t.id);
const sorted = (ts: readonly Ticket[], sort: readonly SortRule[]): Ticket[] => [...ts].sort(compareTickets(sort));
const rule = (field: SortField, direction: 'asc' | 'desc' = 'asc'): SortRule => ({ field, direction });

// An independent statement of every field's order (contract §4-5): priority and state by
// their rank, never by name; times numerically with a missing closed_at before any value;
// text by Unicode code point.
const priorityOrder: readonly Priority[] = ['low', 'normal', 'high', 'urgent'];
const stateOrder: readonly TicketState[] = ['open', 'pending', 'closed'];
const codePointOrder = (a: string, b: string): number => {
  const ca = Array.from(a, (c) => c.codePointAt(0)!);
  const cb = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) if (ca[i] !== cb[i]) return ca[i]! - cb[i]!;
  return ca.length - cb.length;
};
const nullFirst = (a: number | null, b: number | null): number =>
  a === null || b === null ? (a === b ? 0 : a === null ? -1 : 1) : a - b;
const fieldOrder = (field: SortField, a: Ticket, b: Ticket): number => {
  switch (field) {
    case 'id':
      return a.id - b.id;
    case 'subject':
      return codePointOrder(a.subject, b.subject);
    case 'state':
      return stateOrder.indexOf(a.state) - stateOrder.indexOf(b.state);
    case 'priority':
      return priorityOrder.indexOf(a.priority) - priorityOrder.indexOf(b.priority);
    case 'createdAt':
      return a.createdAt - b.createdAt;
    case 'updatedAt':
      return a.updatedAt - b.updatedAt;
    case 'closedAt':
      return nullFirst(a.closedAt, b.closedAt);
  }
};
const oracle =
  (sort: readonly SortRule[]) =>
  (a: Ticket, b: Ticket): number => {
    for (const r of sort) {
      const c = sign(fieldOrder(r.field, a, b));
      if (c !== 0) return r.direction === 'asc' ? c : -c;
    }
    return 0;
  };

// Small value sets, so that ties on every field are frequent.
const ticketArb = (id: number): fc.Arbitrary<Ticket> =>
  fc
    .record({
      subject: fc.string({ unit: fc.constantFrom('a', 'Z', 'z', 'é', '\uFFFF', '𝒜'), maxLength: 2 }),
      state: fc.constantFrom<TicketState>('open', 'pending', 'closed'),
      priority: fc.constantFrom<Priority>('low', 'normal', 'high', 'urgent'),
      created: fc.integer({ min: 0, max: 3 }),
      updated: fc.integer({ min: 0, max: 3 }),
      closed: fc.integer({ min: 0, max: 3 }),
    })
    .map((r) =>
      aTicket({
        id,
        subject: r.subject,
        state: r.state,
        priority: r.priority,
        createdAt: T0 + r.created,
        updatedAt: T0 + r.created + r.updated,
        closedAt: r.state === 'closed' ? T0 + r.closed : null,
      }),
    );
const ticketsArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 8 })
  .chain((idList) => fc.tuple(...idList.map(ticketArb)));
const rulesArb = fc.uniqueArray(
  fc.record({ field: fc.constantFrom(...sortFields), direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc') }),
  { selector: (r) => r.field, maxLength: 4 },
);

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

    describe('properties, for any tickets and any rules', () => {
      it('is a total order: antisymmetric, zero only for the same ticket, transitive', () => {
        fc.assert(
          fc.property(ticketsArb, rulesArb, (ts, rules) => {
            const cmp = compareTickets(completeSort(rules));
            for (const a of ts) {
              for (const b of ts) {
                expect(sign(cmp(a, b))).to.equal(-sign(cmp(b, a)));
                expect(cmp(a, b) === 0).to.equal(a.id === b.id);
                for (const c of ts) if (cmp(a, b) <= 0 && cmp(b, c) <= 0) expect(cmp(a, c)).to.be.at.most(0);
              }
            }
          }),
          { numRuns: 300 },
        );
      });

      it('agrees with every rule: the first field that differs decides, in its direction', () => {
        fc.assert(
          fc.property(ticketsArb, rulesArb, (ts, rules) => {
            const sort = completeSort(rules);
            const cmp = compareTickets(sort);
            const expected = oracle(sort);
            for (const a of ts) for (const b of ts) expect(sign(cmp(a, b))).to.equal(expected(a, b));
          }),
          { numRuns: 300 },
        );
      });

      it('orders tickets equal on every rule by id, in the direction of the last rule', () => {
        fc.assert(
          fc.property(ticketsArb, rulesArb, (ts, rules) => {
            const cmp = compareTickets(completeSort(rules));
            const direction = rules.find((r) => r.field === 'id')?.direction ?? rules.at(-1)?.direction ?? 'asc';
            for (const a of ts) {
              for (const b of ts) {
                if (rules.every((r) => r.field === 'id' || fieldOrder(r.field, a, b) === 0)) {
                  const byId = sign(a.id - b.id);
                  expect(sign(cmp(a, b))).to.equal(direction === 'asc' ? byId : -byId);
                }
              }
            }
          }),
          { numRuns: 300 },
        );
      });

      it('sorting yields a list in which every neighbour pair is in order', () => {
        fc.assert(
          fc.property(ticketsArb, rulesArb, (ts, rules) => {
            const sort = completeSort(rules);
            const list = sorted(ts, sort);
            for (let i = 1; i < list.length; i++) expect(oracle(sort)(list[i - 1]!, list[i]!)).to.equal(-1);
          }),
          { numRuns: 200 },
        );
      });
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
