export interface RateLimitCounter {
  /**
   * Counts one request against `key` in the fixed window starting at `windowStart` (epoch ms)
   * and returns the count including it. Atomic; shared by every process using the same store.
   * The counter may be forgotten once `windowStart + 2 * windowMs` has passed: the window
   * before the current one can still be read (the login throttle reads both).
   */
  hit(key: string, windowStart: number, windowMs: number): Promise<number>;
  /** The count of `key` in the window starting at `windowStart` so far, without counting (0: never hit). */
  count(key: string, windowStart: number): Promise<number>;
}
