import type { TicketFieldRepository, TicketRepository } from '@support/application';
import {
  renameCustomer,
  ticketEvent,
  unassignTicket,
  ungroupTicket,
  type EventActor,
  type Ticket,
  upgradeTicket,
} from '@support/domain';
import type { ChangeRecorder } from '../event-log.js';
import type { MemoryFollowUps } from '../follow-ups.js';
import type { Journal } from '../journal.js';
import { checkOffset } from '../page-of.js';
import { pageAffectedBy } from './page-affected.js';
import { searchTickets, type SearchSettings } from './ticket-search.js';
import { memoryTicketFieldRepository } from './ticket-field-repository.js';
import { TicketTable } from './ticket-table.js';

/** The tickets and their custom field definitions, which share the ticket table's indexes. */
export const memoryTicketStores = (
  journal: Journal,
  settings: SearchSettings & { readonly chunkLoad: number },
  events: ChangeRecorder,
  followUps?: MemoryFollowUps,
): { readonly tickets: TicketRepository; readonly ticketFields: TicketFieldRepository } => {
  const table = new TicketTable(journal, settings.chunkLoad, settings.queueSets === 'bitsets');
  return {
    tickets: memoryTicketRepository(journal, table, settings, events, followUps),
    ticketFields: memoryTicketFieldRepository(journal, table, events),
  };
};

export const memoryTicketRepository = (
  journal: Journal,
  table: TicketTable,
  settings: SearchSettings & { readonly chunkLoad: number },
  events: ChangeRecorder,
  followUps?: MemoryFollowUps,
): TicketRepository => {
  journal.restorer('tickets', {
    upgrade: upgradeTicket,
    restore: (_, t) => {
      table.restore(t);
    },
    finish: () => {
      table.restored();
    },
  });
  const answer = journal.runner(['tickets']);
  // A read of one ticket waits only for a pending write of that ticket.
  const answerFor = journal.recordRunner('tickets');
  // A search waits only for the pending writes that could change its answer.
  const answerView = journal.viewRunner('tickets');
  /**
   * Rewrites tickets by id, one after the other, inside one synchronous call, with an event
   * for each live one (a deleted ticket has no representation left to change).
   */
  const rewriteNow = (ids: readonly number[], change: (t: Ticket) => Ticket, by: EventActor | undefined): void => {
    const changed: Ticket[] = [];
    for (const id of ids) {
      const next = table.put(change(table.ticket(id)));
      if (next.deletedAt === null) changed.push(next);
    }
    events.append(changed.map((t) => ticketEvent('updated', t, t.updatedAt, by)));
  };
  const renameNow = (customerId: number, name: string, now: number, by: EventActor | undefined): void => {
    rewriteNow(
      table.ofCustomer(customerId).filter((id) => table.row(id).customerName !== name),
      (t) => renameCustomer(t, name, now),
      by,
    );
  };
  // The follow-ups of a user's or group's write run inside that write's port call, by its actor (follow-ups.ts).
  followUps?.on('renameCustomer', (f, by) => {
    renameNow(f.customerId, f.name, f.now, by);
  });
  followUps?.on('unassignUser', (f, by) => {
    rewriteNow(table.assignedTo(f.userId), (t) => unassignTicket(t, f.now), by);
  });
  followUps?.on('clearGroup', (f, by) => {
    rewriteNow(table.inGroup(f.groupId), (t) => ungroupTicket(t, f.now), by);
  });
  return {
    insert: (ticket, by) =>
      answer(() => {
        if (table.rowOf(ticket.id) !== undefined)
          throw new Error(`ticket ${ticket.id} already exists; ids are never reused`);
        const stored = table.put(ticket);
        events.record(ticketEvent('created', stored, stored.updatedAt, by));
      }),
    findById: (id) =>
      answerFor(id, () => {
        return table.rowOf(id) === undefined ? null : table.copy(id);
      }),
    update: (ticket, expectedVersion, by) =>
      answer(() => {
        if (table.rowOf(ticket.id)?.version !== expectedVersion) return false;
        const stored = table.put(ticket);
        events.record(ticketEvent('updated', stored, stored.updatedAt, by));
        return true;
      }),
    search: (filter, sort, offset, limit) =>
      answerView(
        () => {
          checkOffset(offset);
          const page = searchTickets(table, settings, filter, sort, offset, limit);
          return { items: page.items, total: page.total };
        },
        (page, versions) => pageAffectedBy(filter, sort, page, versions as readonly (Ticket | undefined)[]),
      ),
    countHolding: (fieldId, values) =>
      answer(() => {
        const index = table.field(fieldId);
        if (index?.byValue == null) return 0;
        const holding = new Set<number>();
        for (const v of new Set(values))
          index.byValue.get(v).forEachSlice((ids, from, to) => {
            for (let k = from; k < to; k++) holding.add(ids[k] as number);
          });
        return holding.size;
      }),
  };
};
