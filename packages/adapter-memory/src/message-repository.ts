import { BigMap } from './big-map.js';
import type { MessageRepository, TicketAttachment } from '@support/application';
import type { AttachmentRecords } from './attachment-repository.js';
import { messageEvent, upgradeMessage, type Message } from '@support/domain';
import { copyMessage, copySummary } from './copies.js';
import type { ChangeRecorder } from './event-log.js';
import type { Journal } from './journal.js';
import { pageOf } from './page-of.js';
import { SortedList } from './sorted-list.js';

/** One ticket's messages by number, with the numbers of the listed ones: all, and not internal. */
class Thread {
  readonly byNumber: Map<number, Message>;
  readonly listed: SortedList<number>;
  readonly listedPublic: SortedList<number>;

  constructor(journal: Journal, ticketId: number, load: number) {
    this.byNumber = journal.map('messages', (n) => [ticketId, n]);
    this.listed = new SortedList<number>((a, b) => a - b, load);
    this.listedPublic = new SortedList<number>((a, b) => a - b, load);
  }

  put(next: Message): void {
    const old = this.byNumber.get(next.number);
    this.byNumber.set(next.number, next);
    follow(this.listed, next.number, old !== undefined && old.deletedAt === null, next.deletedAt === null);
    follow(this.listedPublic, next.number, old !== undefined && isPublic(old), isPublic(next));
  }
}

const isPublic = (m: Message): boolean => m.deletedAt === null && !m.internal;

const follow = (list: SortedList<number>, n: number, was: boolean, is: boolean): void => {
  if (was && !is) list.remove(n);
  if (is && !was) list.insert(n);
};

export const memoryMessageRepository = (
  journal: Journal,
  load: number,
  events: ChangeRecorder,
  files: AttachmentRecords,
): MessageRepository => {
  // Map: derived: the messages of each ticket, rebuilt by the messages restorer
  const threads = new BigMap<number, Thread>();
  const threadOf = (ticketId: number): Thread => {
    let thread = threads.get(ticketId);
    if (thread === undefined) {
      thread = new Thread(journal, ticketId, load);
      threads.set(ticketId, thread);
    }
    return thread;
  };
  journal.restorer('messages', {
    upgrade: upgradeMessage,
    restore: (_, m) => {
      threadOf(m.ticketId).put(m);
    },
  });
  const answer = journal.runner(['messages', 'attachments']);
  return {
    insert: (message, by) =>
      answer(() => {
        const thread = threadOf(message.ticketId);
        if (thread.byNumber.has(message.number)) {
          throw new Error(
            `message ${message.number} of ticket ${message.ticketId} already exists; numbers are never reused`,
          );
        }
        const refused = files.refused(message);
        if (refused.length > 0) return refused;
        const stored = copyMessage(message);
        files.attach(stored);
        thread.put(stored);
        events.record(messageEvent('created', stored, stored.updatedAt, by));
        return [];
      }),
    find: (ticketId, number) =>
      answer(() => {
        const m = threads.get(ticketId)?.byNumber.get(number);
        return m === undefined ? null : copyMessage(m);
      }),
    update: (message, expectedVersion, by) =>
      answer(() => {
        const thread = threads.get(message.ticketId);
        const current = thread?.byNumber.get(message.number);
        if (thread === undefined || current?.version !== expectedVersion) return false;
        const stored = copyMessage(message);
        files.drop(current, stored);
        thread.put(stored);
        events.record(messageEvent('updated', stored, stored.updatedAt, by));
        return true;
      }),
    list: (ticketId, includeInternal, offset, limit) =>
      answer(() => {
        const thread = threads.get(ticketId);
        if (thread === undefined) return { items: [], total: 0 };
        const read = (n: number): Message => {
          const m = thread.byNumber.get(n);
          if (m === undefined) throw new Error(`message ${n} of ticket ${ticketId} is listed but not stored`);
          return copyMessage(m);
        };
        return pageOf(includeInternal ? thread.listed : thread.listedPublic, offset, limit, read);
      }),
    attachments: (ticketId, includeInternal, offset, limit) =>
      answer(() => {
        const thread = threads.get(ticketId);
        const items: TicketAttachment[] = [];
        let total = 0;
        // Few messages carry files: a walk over the thread, counting, is the whole cost.
        for (const n of thread === undefined ? [] : (includeInternal ? thread.listed : thread.listedPublic).values()) {
          const m = thread?.byNumber.get(n);
          for (const a of m?.attachments ?? []) {
            if (m !== undefined && total >= offset && items.length < limit)
              items.push({ number: m.number, authorId: m.authorId, attachment: copySummary(a) });
            total += 1;
          }
        }
        return { items, total };
      }),
  };
};
