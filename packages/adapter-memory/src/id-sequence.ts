import type { IdSequence } from '@support/application';
import { answer } from './answer.js';

export const memoryIdSequence = (): IdSequence => {
  const last = new Map<string, number>();
  return {
    next: (name) =>
      answer(() => {
        const n = (last.get(name) ?? 0) + 1;
        last.set(name, n);
        return n;
      }),
  };
};
