import { BigMap } from './big-map.js';
import type { MessageRepository, TicketAttachment } from '@support/application';
import type { AttachmentRecords } from './attachment-repository.js';
import { messageEvent, upgradeMessage, type Message, type StoredMessage } from '@support/domain';
import { copyMessage, copySummary } from './copies.js';
import type { ChangeRecorder } from './event-log.js';
import type { Journal } from './journal.js';
import { checkOffset } from './page-of.js';
import { Thread, threadFlags } from './thread.js';

export const memoryMessageRepository = (
  journal: Journal,
  events: ChangeRecorder,
  files: AttachmentRecords,
): MessageRepository => {
  // The messages themselves are shelved (shelf.ts): on a durable store they are read from it,
  // one by key, and memory holds of each only its number and flags in its ticket's thread.
  const records = journal.shelf<StoredMessage>('messages');
  // Map: derived: each ticket's thread (numbers and flags), rebuilt by the messages restorer
  const threads = new BigMap<number, Thread>();
  const threadOf = (ticketId: number): Thread => {
    let thread = threads.get(ticketId);
    if (thread === undefined) {
      thread = new Thread();
      threads.set(ticketId, thread);
    }
    return thread;
  };
  /** A stored message its thread names; its absence is a bug. */
  const read = (ticketId: number, n: number): Message => {
    const m = records.get([ticketId, n]);
    if (m === undefined) throw new Error(`message ${n} of ticket ${ticketId} is listed but not stored`);
    // What the store gives back may predate a field (read through the upgrade step, as the load does).
    return upgradeMessage(m);
  };
  journal.restorer('messages', {
    upgrade: upgradeMessage,
    restore: (key, m) => {
      threadOf(m.ticketId).put(m.number, threadFlags(m));
      records.restored(key, m);
    },
  });
  const answer = journal.runner(['messages', 'attachments']);
  return {
    insert: (message, by) =>
      answer(() => {
        const thread = threadOf(message.ticketId);
        if (thread.has(message.number)) {
          throw new Error(
            `message ${message.number} of ticket ${message.ticketId} already exists; numbers are never reused`,
          );
        }
        const refused = files.refused(message);
        if (refused.length > 0) return refused;
        const stored = copyMessage(message);
        files.attach(stored);
        records.set([stored.ticketId, stored.number], stored);
        thread.put(stored.number, threadFlags(stored));
        events.record(messageEvent('created', stored, stored.updatedAt, by));
        return [];
      }),
    find: (ticketId, number) =>
      answer(() => (threads.get(ticketId)?.has(number) === true ? copyMessage(read(ticketId, number)) : null)),
    update: (message, expectedVersion, by) =>
      answer(() => {
        const thread = threads.get(message.ticketId);
        if (thread?.has(message.number) !== true) return false;
        const current = read(message.ticketId, message.number);
        if (current.version !== expectedVersion) return false;
        const stored = copyMessage(message);
        files.drop(current, stored);
        records.set([stored.ticketId, stored.number], stored);
        thread.put(stored.number, threadFlags(stored));
        events.record(messageEvent('updated', stored, stored.updatedAt, by));
        return true;
      }),
    list: (ticketId, includeInternal, offset, limit) =>
      answer(() => {
        checkOffset(offset);
        const thread = threads.get(ticketId);
        if (thread === undefined) return { items: [], total: 0 };
        const numbers = thread.page(includeInternal, Math.max(0, offset), Math.max(0, limit));
        return { items: numbers.map((n) => copyMessage(read(ticketId, n))), total: thread.count(includeInternal) };
      }),
    attachments: (ticketId, includeInternal, offset, limit) =>
      answer(() => {
        const thread = threads.get(ticketId);
        const items: TicketAttachment[] = [];
        let total = 0;
        // Few messages carry files: only those are read, and counting them is the whole cost.
        for (const n of thread?.withFiles(includeInternal) ?? []) {
          const m = read(ticketId, n);
          for (const a of m.attachments) {
            if (total >= offset && items.length < limit)
              items.push({ number: m.number, authorId: m.authorId, attachment: copySummary(a) });
            total += 1;
          }
        }
        return { items, total };
      }),
  };
};
