export interface RateLimitCounter {
    /**
     * Counts one request against `key` in the fixed window starting at `windowStart` (epoch ms)
     * and returns the count including it. Atomic; shared by every process using the same store.
     * The counter may be forgotten once `windowStart + windowMs` has passed.
     */
    hit(key: string, windowStart: number, windowMs: number): Promise<number>;
}
//# sourceMappingURL=rate-limit-counter.d.ts.map