import type { IdSequence } from '@support/application';
import { storedAsIs, type Journal } from './journal.js';

export const memoryIdSequence = (journal: Journal): IdSequence => {
  const last = journal.map<string, number>('ids');
  journal.restorer('ids', { upgrade: storedAsIs<number>, restore: (name, n) => last.set(name as string, n) });
  // An id is durable before any write that shows it is answered (Journal.aheadRunner).
  const answer = journal.aheadRunner(['ids']);
  return {
    next: (name) =>
      answer(() => {
        const n = (last.get(name) ?? 0) + 1;
        last.set(name, n);
        return n;
      }),
  };
};
