import { compareKeys, sortFields, sortKey, ticketStates, priorities, type Ticket } from '@support/domain';
import { aTicket } from '@support/domain/testing';
import { expect } from 'chai';
import fc from 'fast-check';
import { TicketFacts } from '../src/tickets/ticket-facts.js';

// The facts' comparers read the numeric keys straight from their arrays (no key boxed); they
// must order any two stored tickets as the domain's compareKeys orders their sort keys, for
// tickets kept in the arrays and for those kept aside (an id far beyond the count), with or
// without a closed_at.

const storedTicket = fc
  .record({
    id: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 5_000_000, max: 5_000_010 })),
    state: fc.constantFrom(...ticketStates),
    priority: fc.constantFrom(...priorities),
    created: fc.integer({ min: 0, max: 3 }),
    updated: fc.integer({ min: 0, max: 3 }),
    closed: fc.option(fc.integer({ min: 0, max: 3 })),
  })
  .map(({ created, updated, closed, ...t }) =>
    aTicket({
      ...t,
      createdAt: 1_700_000_000_000 + created,
      updatedAt: 1_700_000_000_500 + updated * 1e9,
      closedAt: closed === null ? null : 1_700_000_000_000 + closed,
    }),
  );

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe('TicketFacts: the comparers of numeric sort fields', () => {
  it('order two stored tickets as compareKeys orders their sort keys, for every numeric field', () => {
    fc.assert(
      fc.property(fc.uniqueArray(storedTicket, { selector: (t) => t.id, minLength: 2, maxLength: 12 }), (tickets) => {
        const facts = new TicketFacts();
        for (const t of tickets) facts.put(t);
        const byId = new Map<number, Ticket>(tickets.map((t) => [t.id, t]));
        for (const field of sortFields) {
          const compare = facts.comparer(field);
          if (field === 'subject') {
            expect(compare).to.equal(undefined);
            continue;
          }
          if (compare === undefined) throw new Error(`no comparer for ${field}`);
          for (const a of byId.values())
            for (const b of byId.values()) {
              const expected = sign(compareKeys(sortKey(a, field), sortKey(b, field)));
              expect(sign(compare(a.id, b.id)), `${field} ${a.id} ${b.id}`).to.equal(expected);
            }
        }
      }),
    );
  });
});
