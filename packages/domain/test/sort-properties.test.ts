import { expect } from 'chai';
import fc from 'fast-check';
import {
  compareTickets,
  completeSort,
  type Priority,
  type SortField,
  type SortRule,
  type Ticket,
  type TicketState,
} from '../src/index.js';
import { aTicket, T0 } from '../test-support/mothers.js';
import { rulesArb, sign, sorted } from './support/sorting.js';

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
      const c = sign(fieldOrder(r.field as SortField, a, b));
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

describe('sort order', () => {
  describe('compareTickets', () => {
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
