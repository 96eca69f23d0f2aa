import type { MessageRepository } from '@support/application';
import { messageEvent, upgradeMessage, type Message } from '@support/domain';
import { copyMessage } from './copies.js';
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

export const memoryMessageRepository = (journal: Journal, load: number, events: ChangeRecorder): MessageRepository => {
  // Map: derived: the messages of each ticket, rebuilt by the messages restorer
  const threads = new Map<number, Thread>();
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
  const answer = journal.runner(['messages']);
  return {
    insert: (message, by) =>
      answer(() => {
        const thread = threadOf(message.ticketId);
        if (thread.byNumber.has(message.number)) {
          throw new Error(
            `message ${message.number} of ticket ${message.ticketId} already exists; numbers are never reused`,
          );
        }
        const stored = copyMessage(message);
        thread.put(stored);
        events.record(messageEvent('created', stored, stored.updatedAt, by));
      }),
    find: (ticketId, number) =>
      answer(() => {
        const m = threads.get(ticketId)?.byNumber.get(number);
        return m === undefined ? null : copyMessage(m);
      }),
    update: (message, expectedVersion, by) =>
      answer(() => {
        const thread = threads.get(message.ticketId);
        if (thread === undefined || thread.byNumber.get(message.number)?.version !== expectedVersion) return false;
        const stored = copyMessage(message);
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
  };
};
