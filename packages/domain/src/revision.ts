/** What every stored record carries for the write rule. */
export interface Revisable {
  readonly updatedAt: number;
  readonly version: number;
}

/**
 * The write rule of tickets, messages, users and groups: a record after a write carries the
 * changed fields, updated_at moved forward to `now` (never back, so Last-Modified never goes
 * backwards when clocks disagree) and the next version (what the stores' compare-and-set checks).
 */
export const revise = <T extends Revisable>(record: T, now: number, change: Partial<T>): T => ({
  ...record,
  ...change,
  updatedAt: Math.max(now, record.updatedAt),
  version: record.version + 1,
});
