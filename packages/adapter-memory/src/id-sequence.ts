import type { IdSequence } from '@support/application';
import type { Journal } from './journal.js';

export const memoryIdSequence = (journal: Journal): IdSequence => {
  const last = journal.map<string, number>('ids');
  journal.restorer('ids', (name, n) => last.set(name as string, n as number));
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
