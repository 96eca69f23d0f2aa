import type { IdSequence } from '@support/application';
import type { Journal } from './journal.js';

export const memoryIdSequence = (journal: Journal): IdSequence => {
  const last = journal.map<string, number>('ids');
  journal.restorer('ids', (name, n) => last.set(name as string, n as number));
  const answer = journal.runner(['ids']);
  return {
    next: (name) =>
      answer(() => {
        const n = (last.get(name) ?? 0) + 1;
        last.set(name, n);
        return n;
      }),
  };
};
