import { priorities, sortFields, ticketStates, type Ticket } from '@support/domain';
import { aTicket } from '@support/domain/testing';
import { expect } from 'chai';
import fc from 'fast-check';
import { Journal } from '../src/journal.js';
import { TicketTable } from '../src/tickets/ticket-table.js';

// A start puts stored tickets back with `restore` and builds the sort indexes once
// (`restored`); a running store moves each ticket with `put`. Both must give the same indexes.

const instant = fc.option(
  fc.integer({ min: 0, max: 5 }).map((m) => 1_700_000_000_000 + m * 60_000),
  { freq: 3 },
);

const ticket = (id: number): fc.Arbitrary<Ticket> =>
  fc
    .record({
      subject: fc.constantFrom('printer', 'Printer', 'fire', 'a', 'zebra fire'),
      state: fc.constantFrom(...ticketStates),
      priority: fc.constantFrom(...priorities),
      customerId: fc.integer({ min: 1, max: 3 }),
      assignedUserId: fc.option(fc.integer({ min: 1, max: 3 })),
      groupId: fc.option(fc.integer({ min: 1, max: 2 })),
      tags: fc.uniqueArray(fc.constantFrom('vip', 'x'), { maxLength: 2 }),
      created: fc.integer({ min: 0, max: 3 }),
      closedAt: instant,
      deletedAt: fc.option(fc.constant(1_800_000_000_000), { freq: 4 }),
    })
    .map(({ created, ...f }) =>
      aTicket({ ...f, id, createdAt: 1_700_000_000_000 + created, updatedAt: 1_700_000_000_000 + created * 7 }),
    );

const indexes = (t: TicketTable) => ({
  order: sortFields.map((f) => t.order.list(f).values()),
  words: ['printer', 'fire', 'a', 'zebra'].map((w) => t.words.posting(w)?.values() ?? []),
  queues: [1, 2, 3].map((k) => [t.liveByCustomer.get(k).size, t.liveByAssignee.get(k).size, t.liveByGroup.get(k).size]),
  customers: [1, 2, 3].map((k) => t.ofCustomer(k).sort()),
});

describe('TicketTable: the start-up restore builds the indexes a running store has', () => {
  it('gives every sort index, posting and queue the same entries as putting each ticket', () => {
    const writes = fc.array(
      fc.integer({ min: 1, max: 12 }).chain((id) => ticket(id)),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(writes, (tickets) => {
        const running = new TicketTable(new Journal(null), 2);
        for (const t of tickets) running.put(t);
        const started = new TicketTable(new Journal(null), 2);
        const stored = new Map(tickets.map((t) => [t.id, t]));
        for (const t of [...stored.values()].sort((a, b) => a.id - b.id)) started.restore(t);
        started.restored();
        expect(indexes(started)).to.deep.equal(indexes(running));
      }),
    );
  });
});
