import {
  compareByRule,
  customSortField,
  priorities,
  sortFields,
  sortKey,
  ticketStates,
  type CustomValue,
  type SortRule,
  type Ticket,
} from '@support/domain';
import { aTicket } from '@support/domain/testing';
import { expect } from 'chai';
import fc from 'fast-check';
import { Journal } from '../src/journal.js';
import { TicketTable } from '../src/tickets/ticket-table.js';
import { field, opts } from './field-definitions.js';

// TicketOrderings.ruleComparer keeps one comparer per field and direction (a custom field's on its
// index), made once and reused by every later search. A kept comparer must order two live
// tickets as the domain's compareByRule orders their sort keys after any later writes (the
// facts' arrays grow and are replaced), and a custom field's must not outlive its index: a field
// redefined with other options, or deleted and defined again, is ordered by its new definition.

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

const region = (options: string[]) => field(4, 'dropdown', { options: opts(...options) });
const seats = field(7, 'integer');

const ticket = fc
  .record({
    // Ids in the facts' first arrays, ids that make them grow (replaced), ids kept aside (far beyond the count).
    id: fc.oneof(
      fc.integer({ min: 1, max: 30 }),
      fc.integer({ min: 2000, max: 2010 }),
      fc.integer({ min: 5_000_000, max: 5_000_010 }),
    ),
    subject: fc.constantFrom('printer', 'Printer', 'fire'),
    state: fc.constantFrom(...ticketStates),
    priority: fc.constantFrom(...priorities),
    created: fc.integer({ min: 0, max: 3 }),
    closed: fc.option(fc.integer({ min: 0, max: 3 })),
    region: fc.option(fc.constantFrom('eu', 'uk', 'us')),
    seats: fc.option(fc.integer({ min: -3, max: 3 })),
  })
  .map(({ created, closed, region: r, seats: n, ...t }) => {
    const customFields: Record<string, CustomValue> = {};
    if (r !== null) customFields['4'] = r;
    if (n !== null) customFields['7'] = n;
    return aTicket({
      ...t,
      createdAt: 1_700_000_000_000 + created,
      updatedAt: 1_700_000_000_000 + created * 7,
      closedAt: closed === null ? null : 1_700_000_000_000 + closed,
      customFields,
    });
  });

const rules: SortRule[] = [...sortFields, customSortField(4), customSortField(7)].flatMap((f) =>
  (['asc', 'desc'] as const).map((direction) => ({ field: f, direction })),
);

/** Every pair of the live tickets ordered by the comparer as compareByRule orders their keys. */
const expectOrders = (
  table: TicketTable,
  live: readonly Ticket[],
  rule: SortRule,
  compare = table.orderings.ruleComparer(rule),
) => {
  for (const a of live)
    for (const b of live)
      expect(sign(compare(a.id, b.id)), `${rule.field} ${rule.direction} ${a.id} ${b.id}`).to.equal(
        sign(compareByRule(rule, sortKey(a, rule.field), sortKey(b, rule.field))),
      );
};

describe('TicketOrderings.ruleComparer: comparers kept across searches', () => {
  it('keeps ordering as compareByRule after later writes, for every field and direction', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(ticket, { selector: (t) => t.id, minLength: 1, maxLength: 10 }),
        fc.uniqueArray(ticket, { selector: (t) => t.id, maxLength: 10 }),
        (first, later) => {
          const table = new TicketTable(new Journal(null), 2);
          table.defineField(region(['eu', 'uk', 'us']), true);
          table.defineField(seats, true);
          for (const t of first) table.put(t);
          const kept = rules.map((r) => table.orderings.ruleComparer(r));
          for (const t of later) table.put(t);
          const live = new Map([...first, ...later].map((t) => [t.id, t]));
          rules.forEach((rule, i) => {
            expect(table.orderings.ruleComparer(rule), `${rule.field} ${rule.direction} is kept`).to.equal(kept[i]);
            expectOrders(table, [...live.values()], rule);
          });
        },
      ),
    );
  });

  it('drops a custom field’s comparers when the field is redefined with other options', () => {
    const table = new TicketTable(new Journal(null), 2);
    table.defineField(region(['eu', 'uk']), true);
    const tickets = [aTicket({ id: 1, customFields: { '4': 'uk' } }), aTicket({ id: 2, customFields: { '4': 'eu' } })];
    for (const t of tickets) table.put(t);
    const rule: SortRule = { field: customSortField(4), direction: 'asc' };
    const before = table.orderings.ruleComparer(rule);
    expectOrders(table, tickets, rule);
    // A new option, and a ticket holding it: the old comparer's ranks do not know it.
    table.defineField(region(['eu', 'uk', 'zz']), true);
    const zz = aTicket({ id: 3, customFields: { '4': 'zz' } });
    table.put(zz);
    expect(table.orderings.ruleComparer(rule)).not.to.equal(before);
    expectOrders(table, [...tickets, zz], rule);
  });

  it('drops a custom field’s comparers when the field is deleted; one defined again with its key is ordered by its own values', () => {
    const table = new TicketTable(new Journal(null), 2);
    table.defineField(region(['eu', 'uk']), true);
    for (const [id, r] of [
      [1, 'uk'],
      [2, 'eu'],
    ] as const)
      table.put(aTicket({ id, customFields: { '4': r } }));
    const rule: SortRule = { field: customSortField(4), direction: 'desc' };
    const before = table.orderings.ruleComparer(rule);
    expect(sign(before(1, 2))).to.equal(-1);
    table.dropField(4);
    expect(table.orderings.ruleComparer(rule)).not.to.equal(before);
    expect(table.orderings.ruleComparer(rule)(1, 2)).to.equal(0);
    // The key again (a new field: a new id), an integer now, with the tickets' new values.
    table.defineField(field(9, 'integer', { key: 'f4' }), true);
    const again = [aTicket({ id: 1, customFields: { '9': 2 } }), aTicket({ id: 2, customFields: { '9': 10 } })];
    for (const t of again) table.put(t);
    const newRule: SortRule = { field: customSortField(9), direction: 'desc' };
    expectOrders(table, again, newRule);
    expect(sign(table.orderings.ruleComparer(newRule)(1, 2))).to.equal(1);
    expect(table.orderings.ruleComparer(rule)(1, 2)).to.equal(0);
  });
});
