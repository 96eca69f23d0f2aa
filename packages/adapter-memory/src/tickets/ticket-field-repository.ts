import type { TicketFieldRepository } from '@support/application';
import { byPosition, ticketFieldEvent, type TicketFieldDefinition } from '@support/domain';
import type { ChangeRecorder } from '../event-log.js';
import { storedAsIs, type Journal } from '../journal.js';
import type { TicketTable } from './ticket-table.js';

/**
 * Custom field definitions (contract §10) in memory, with the ticket table's index of each:
 * made when the field is defined (or at start), dropped when it is deleted, in the same port
 * call. Definitions are frozen and handed out as they are (at most 100, read on every ticket
 * request: no copies).
 */
export const memoryTicketFieldRepository = (
  journal: Journal,
  table: TicketTable,
  events: ChangeRecorder,
): TicketFieldRepository => {
  // Map: journal: the definitions, restored by the ticketFields restorer
  const rows = journal.map<number, TicketFieldDefinition>('ticketFields');
  const answer = journal.runner(['ticketFields']);
  let ordered: readonly TicketFieldDefinition[] = [];
  const put = (def: TicketFieldDefinition, build: boolean): TicketFieldDefinition => {
    const stored = Object.freeze({ ...def, options: Object.freeze(def.options.map((o) => Object.freeze({ ...o }))) });
    rows.set(stored.id, stored);
    table.defineField(stored, build);
    ordered = Object.freeze([...rows.values()].sort(byPosition));
    return stored;
  };
  journal.restorer('ticketFields', {
    upgrade: storedAsIs<TicketFieldDefinition>,
    restore: (_, def) => {
      put(def, false);
    },
  });
  return {
    list: () => answer(() => ordered),
    findById: (id) => answer(() => rows.get(id) ?? null),
    insert: (field, limit, by) =>
      answer(() => {
        if (ordered.some((d) => d.key === field.key)) return 'key_taken' as const;
        if (ordered.length >= limit) return 'too_many' as const;
        if (rows.has(field.id)) throw new Error(`ticket field ${field.id} already exists; ids are never reused`);
        const stored = put(field, true);
        events.record(ticketFieldEvent('created', stored, stored.updatedAt, by));
        return 'ok' as const;
      }),
    update: (field, expectedVersion, by) =>
      answer(() => {
        if (rows.get(field.id)?.version !== expectedVersion) return false;
        const stored = put(field, true);
        events.record(ticketFieldEvent('updated', stored, stored.updatedAt, by));
        return true;
      }),
    delete: (id, now, by) =>
      answer(() => {
        const old = rows.get(id);
        if (old === undefined) return false;
        rows.delete(id);
        table.dropField(id);
        ordered = Object.freeze([...rows.values()].sort(byPosition));
        events.record(ticketFieldEvent('deleted', old, now, by));
        return true;
      }),
  };
};
