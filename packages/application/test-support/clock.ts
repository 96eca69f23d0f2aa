import type { Clock } from '../src/index.js';

/** A clock the test moves by hand: the one test clock of every package (the Clock port). */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export const manualClock = (start = Date.UTC(2026, 0, 6, 9, 0, 0)): ManualClock => {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (ms) => {
      now = ms;
    },
  };
};
