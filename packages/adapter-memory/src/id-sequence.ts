import type { IdSequence } from '@support/application';
import { storedAsIs, type Journal } from './journal.js';

/** A ticket's message numbers (`message:<ticket id>`): one sequence per ticket that has messages. */
const perTicket = /^message:([1-9][0-9]{0,14})$/;

export const memoryIdSequence = (journal: Journal): IdSequence => {
  const last = journal.map<string, number>('ids');
  // Most sequences of a large store are its tickets' message numbers: kept by the ticket's id
  // (a number) rather than by the name (a string each), ~40 bytes less a ticket; stored under
  // the same name as any other sequence.
  const ofTicket = journal.map<number, number>('ids', (ticketId) => `message:${String(ticketId)}`);
  const at = (name: string): { readonly get: () => number | undefined; readonly set: (n: number) => void } => {
    const ticketId = perTicket.exec(name)?.[1];
    if (ticketId === undefined) return { get: () => last.get(name), set: (n) => last.set(name, n) };
    const id = Number(ticketId);
    return { get: () => ofTicket.get(id), set: (n) => ofTicket.set(id, n) };
  };
  journal.restorer('ids', {
    upgrade: storedAsIs<number>,
    restore: (name, n) => {
      at(name as string).set(n);
    },
  });
  // An id is durable before any write that shows it is answered (Journal.aheadRunner).
  const answer = journal.aheadRunner(['ids']);
  return {
    next: (name) =>
      answer(() => {
        const sequence = at(name);
        const n = (sequence.get() ?? 0) + 1;
        sequence.set(n);
        return n;
      }),
  };
};
